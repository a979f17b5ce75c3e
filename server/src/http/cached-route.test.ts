import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { requestContext } from './request-context.js';
import { type Answer, httpCachingPolicy } from './answer.js';
import { type CachedRoute, cachedRouteMount, openApiPath, rawQueryOf } from './cached-route.js';
import { FailureError } from '../outcomes/failure.js';
import type { KeptRoute } from './response-cache.js';

describe('rawQueryOf', () => {
  it.each([
    ['/api/products', ''],
    ['/api/products?', ''],
    ['/api/products?limit=3', 'limit=3'],
    ['/api/products?a=1?b=2', 'a=1?b=2'],
  ])('%j → %j', (url, query) => {
    expect(rawQueryOf(url)).toBe(query);
  });
});

it('names the route for the OpenAPI document from its one path', () => {
  expect(openApiPath({ path: '/things/:name/part', read: () => null })).toBe('/things/{name}/part');
});

class Unavailable extends FailureError {
  readonly failure = 'unavailable';

  constructor() {
    super('down');
  }
}

describe('one cached route, one object: Express’s handler and what the response cache keeps', () => {
  const servers: Server[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

  const answerFor = (word: string, freshness: Answer['freshness']): Answer => ({
    body: { identity: Buffer.from(JSON.stringify(word)), etag: `"${word}"` },
    contentType: 'application/json; charset=utf-8',
    cacheStatus: 'MISS',
    ageSeconds: 0,
    freshForSeconds: 60,
    ...(freshness && { freshness }),
  });
  const FRESH = { storedAt: 0, freshUntil: Number.MAX_SAFE_INTEGER };

  async function serve(mount: (router: Router) => void, base: string) {
    const router = express.Router();
    mount(router);
    const app = express().use(requestContext).use(base, router);
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  function mounter(kept: [string, KeptRoute, Answer][]) {
    const { logger } = createCapturingLogger('warn');
    return cachedRouteMount({
      caching: httpCachingPolicy({ cacheTtlSeconds: 60, staleMaxSeconds: 600 }),
      responses: { keep: (url, _req, route, answer) => void kept.push([url, route, answer]) },
      logger,
    });
  }

  it('reads the request once, refuses with a 400, answers failures by its messages and other methods with a 405, and hands each answer to be kept', async () => {
    const asked: string[] = [];
    const word: CachedRoute<string, { prefix: string }> = {
      path: '/words/:word',
      scope: 'api',
      read: ({ params }) => (params.word === 'bad' ? { error: 'bad word' } : (params.word ?? '')),
      answer: (input, { prefix }) => {
        asked.push(`${prefix} ${input}`);
        return input === 'broken' ? Promise.reject(new Unavailable()) : Promise.resolve(answerFor(input, FRESH));
      },
      variesBy: (req, { prefix }) => `${prefix} ${req.headers.accept}`,
      failures: { 'not-found': 'no such word', unavailable: 'the words are away', 'timed-out': 'the words are slow' },
    };
    const kept: [string, KeptRoute, Answer][] = [];
    const site = await serve((router) => expect(mounter(kept)(router, [word], { prefix: 'p' })).toHaveLength(1), '/api');

    const fromExpress = await fetch(`${site.origin}/api/words/lamp?x=1`, { headers: { accept: 'text/plain' } });
    expect([fromExpress.status, fromExpress.headers.get('x-cache'), await fromExpress.json()]).toEqual([200, 'MISS', 'lamp']);
    const refused = await fetch(`${site.origin}/api/words/bad`);
    expect([refused.status, refused.headers.get('cache-control'), await refused.json()]).toEqual([400, 'no-store', { error: 'bad word' }]);
    const failed = await fetch(`${site.origin}/api/words/broken`);
    expect([failed.status, await failed.json()]).toEqual([502, { error: 'the words are away' }]);
    expect((await fetch(`${site.origin}/api/words/lamp`, { method: 'POST' })).status).toBe(405);

    expect(asked).toEqual(['p lamp', 'p broken']);
    expect(kept.map(([url, route, answer]) => [url, route.pattern, route.api, answer.body.etag])).toEqual([
      ['/api/words/lamp?x=1', '/api/words/:word', true, '"lamp"'],
    ]);
    expect(kept[0]![1].variesBy!({ headers: { accept: 'text/plain' } } as IncomingMessage)).toBe('p text/plain');
  });

  it('makes a site route the same way: at the root, its read given the whole URL, an uncached answer sent no-store and never kept', async () => {
    const kept: [string, KeptRoute, Answer][] = [];
    const page: CachedRoute<string, null> = {
      path: '/pages/:name',
      scope: 'site',
      read: ({ url }) => url,
      answer: (url) =>
        Promise.resolve(
          url.endsWith('?down')
            ? { status: 503, type: 'html' as const, body: '<p>down</p>', retryAfterSeconds: 30 }
            : answerFor(url, FRESH),
        ),
    };
    const site = await serve((router) => void mounter(kept)(router, [page], null), '');
    const shown = await fetch(`${site.origin}/pages/home?q=1`);
    expect([shown.status, await shown.json()]).toEqual([200, '/pages/home?q=1']);
    const down = await fetch(`${site.origin}/pages/home?down`);
    expect([down.status, down.headers.get('cache-control'), down.headers.get('retry-after'), await down.text()]).toEqual([
      503,
      'no-store',
      '30',
      '<p>down</p>',
    ]);
    // Not an /api route: another method is not this route's to refuse.
    expect((await fetch(`${site.origin}/pages/home`, { method: 'POST' })).status).toBe(404);
    expect(kept.map(([url, route]) => [url, route.pattern, route.api])).toEqual([['/pages/home?q=1', '/pages/:name', false]]);
  });
});
