import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { requestContext } from './request-context.js';
import { type Answer, httpCachingPolicy } from './answer.js';
import {
  type DeclaredRoute,
  apiPattern,
  cacheableRoute,
  cachedApiRoute,
  cachedSiteRoute,
  mountCachedRoutes,
  openApiPath,
  rawQueryOf,
} from './api-route.js';

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

describe('one declaration, three names', () => {
  const item: DeclaredRoute<{ name: string; query: string }> = {
    path: '/things/:name/part',
    readsQuery: true,
    read: ({ params, query }) => (params.name === 'bad' ? { error: 'bad name' } : { name: params.name ?? '', query }),
  };
  const plain: DeclaredRoute<string> = { path: '/things.json', readsQuery: false, read: () => 'all' };
  const cacheable = (route: DeclaredRoute<unknown>) =>
    cacheableRoute(cachedApiRoute(route, { get: () => Promise.reject(new Error('not asked')), peek: () => undefined }));
  const match = (route: DeclaredRoute<unknown>, url: string) => cacheable(route).match(url);

  it('names the route for Express, the metrics and the OpenAPI document from its one path', () => {
    expect(apiPattern(item)).toBe('/api/things/:name/part');
    expect(openApiPath(item)).toBe('/things/{name}/part');
    expect(cacheable(item).pattern).toBe('/api/things/:name/part');
  });

  it('matches the exact path, decodes its parameters as Express does, and hands over what the route read', () => {
    expect(match(item, '/api/things/a%20b/part?x=1')).toEqual({ name: 'a b', query: 'x=1' });
    expect(match(item, '/api/things/a/part')).toEqual({ name: 'a', query: '' });
    expect(match(plain, '/api/things.json')).toBe('all');
  });

  it.each([
    [item, '/api/things/bad/part'],
    [item, '/api/things/%E0%A4%A/part'],
    [item, '/api/things/a/b/part'],
    [item, '/api/things//part'],
    [item, '/api/things/a/part/'],
    [item, '/API/things/a/part'],
    [plain, '/api/things.json?x=1'],
    [plain, '/api/thingsxjson'],
  ])('leaves %j to Express', (route, url) => {
    expect(match(route, url)).toBeUndefined();
  });
});

describe('one cacheable route declaration, both paths', () => {
  const servers: Server[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

  const word: DeclaredRoute<string> = {
    path: '/words/:word',
    readsQuery: false,
    read: ({ params }) => (params.word === 'bad' ? { error: 'bad word' } : (params.word ?? '')),
  };
  const answerFor = (word: string, cacheStatus: Answer['cacheStatus']): Answer => ({
    body: { identity: Buffer.from(JSON.stringify(word)), etag: `"${word}"` },
    contentType: 'application/json; charset=utf-8',
    cacheStatus,
    ageSeconds: 0,
    freshForSeconds: 60,
  });

  it("makes Express's handler from `get` and the response cache's entry from `peek`, reading the URL once for each", async () => {
    const asked: string[] = [];
    const router = express.Router();
    const [entry, ...more] = mountCachedRoutes(
      router,
      [
        cachedApiRoute(word, {
          get: (input) => {
            asked.push(`get ${input}`);
            return input === 'broken' ? Promise.reject(new Error('the catalogue failed')) : Promise.resolve(answerFor(input, 'MISS'));
          },
          peek: (input, req: IncomingMessage) => {
            asked.push(`peek ${input} ${req.url}`);
            return input === 'fresh' ? answerFor(input, 'HIT') : undefined;
          },
          failures: (_error, _req, res, _next) => void res.status(503).json({ error: 'unavailable' }),
        }),
      ],
      httpCachingPolicy({ cacheTtlSeconds: 60, staleMaxSeconds: 600 }),
    );
    expect(more).toEqual([]);
    const app = express().use(requestContext).use('/api', router);
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const fromExpress = await fetch(`${origin}/api/words/lamp`);
    expect([fromExpress.status, fromExpress.headers.get('x-cache'), await fromExpress.json()]).toEqual([200, 'MISS', 'lamp']);
    const refused = await fetch(`${origin}/api/words/bad`);
    expect([refused.status, await refused.json()]).toEqual([400, { error: 'bad word' }]);
    const failed = await fetch(`${origin}/api/words/broken`);
    expect([failed.status, await failed.json()]).toEqual([503, { error: 'unavailable' }]);
    expect((await fetch(`${origin}/api/words/lamp`, { method: 'POST' })).status).toBe(405);

    expect(entry!.pattern).toBe('/api/words/:word');
    expect(entry!.match('/api/words/bad')).toBeUndefined();
    const key = entry!.match('/api/words/fresh');
    const req = { url: '/api/words/fresh' } as IncomingMessage;
    expect(entry!.peek(key, req)?.cacheStatus).toBe('HIT');
    expect(asked).toEqual(['get lamp', 'get broken', 'peek fresh /api/words/fresh']);
  });

  it('makes a site route of the same shape: at the root, its read given the whole URL, an uncached answer sent no-store', async () => {
    const router = express.Router();
    const page = { path: '/pages/:name', readsQuery: true, read: ({ url }: { url: string }) => url };
    const [entry] = mountCachedRoutes(
      router,
      [
        cachedSiteRoute(page, {
          get: (url) =>
            Promise.resolve(
              url.endsWith('?down')
                ? { status: 503, type: 'html' as const, body: '<p>down</p>', retryAfterSeconds: 30 }
                : answerFor(url, 'MISS'),
            ),
          peek: () => undefined,
        }),
      ],
      httpCachingPolicy({ cacheTtlSeconds: 60, staleMaxSeconds: 600 }),
    );
    const app = express().use(requestContext).use(router);
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const cached = await fetch(`${origin}/pages/a?b=1`);
    expect([cached.status, cached.headers.get('x-cache'), await cached.json()]).toEqual([200, 'MISS', '/pages/a?b=1']);
    const down = await fetch(`${origin}/pages/a?down`);
    expect([down.status, down.headers.get('cache-control'), down.headers.get('retry-after'), down.headers.get('content-type')]).toEqual([
      503,
      'no-store',
      '30',
      'text/html; charset=utf-8',
    ]);
    expect(await down.text()).toBe('<p>down</p>');
    // Not an /api route: no 405 of its own, and not rate limited by the response cache.
    expect((await fetch(`${origin}/pages/a`, { method: 'POST' })).status).toBe(404);
    expect([entry!.pattern, entry!.rateLimited, entry!.match('/pages/a?b=1')]).toEqual(['/pages/:name', false, '/pages/a?b=1']);
  });
});
