import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChecker, takeUndocumentedAnswers, watchAnswers } from './answer-watch.js';
import { startTestSite, type TestSite } from './test-site.js';

const SETTINGS = { rateLimited: true, anyOrigin: true };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const ERROR_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  ratelimit: '"600-in-1min"; r=599; t=60',
  'ratelimit-policy': '"600-in-1min"; q=600; w=60',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Age, X-Cache, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After',
};

describe('the checker', () => {
  const checker = answerChecker();
  const answer = (method: string, url: string, status: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)) =>
    checker.problems({ method, url, status, headers, body }, SETTINGS);

  it('passes an answer the document promises', () => {
    expect(answer('GET', '/api/products/abc', 400, ERROR_HEADERS, json({ error: 'Invalid Product ID' }))).toEqual([]);
    expect(answer('GET', '/api/no/such/path', 404, ERROR_HEADERS, json({ error: 'Not found' }))).toEqual([]);
  });

  it('refuses a status the operation does not list', () => {
    expect(answer('GET', '/api/products/1', 500, ERROR_HEADERS, json({ error: 'boom' }))).toEqual([
      expect.stringContaining('GET /products/{id} (GET /api/products/1) → 500: the document lists no such answer'),
    ]);
    expect(answer('GET', '/api/openapi.json', 502, ERROR_HEADERS, json({ error: 'x' }))).toHaveLength(1);
  });

  it('refuses a body that does not match the schema, or is not JSON', () => {
    expect(answer('GET', '/api/products/abc', 400, ERROR_HEADERS, json({ message: 'Invalid Product ID' }))[0]).toMatch(
      /does not match its schema/,
    );
    expect(answer('GET', '/api/products/abc', 400, ERROR_HEADERS, Buffer.from('<h1>no</h1>'))[0]).toMatch(/not JSON/);
  });

  it('refuses a missing required header, a header sent twice and one that breaks its schema', () => {
    const { 'cache-control': _dropped, ...withoutCacheControl } = ERROR_HEADERS;
    expect(answer('GET', '/api/products/abc', 400, withoutCacheControl, json({ error: 'x' }))[0]).toMatch(/header Cache-Control missing/);
    expect(answer('GET', '/api/products/abc', 400, { ...ERROR_HEADERS, ratelimit: 'lots' }, json({ error: 'x' }))[0]).toMatch(
      /RateLimit: lots/,
    );
    expect(
      checker.problems(
        {
          method: 'GET',
          url: '/api/products/abc',
          status: 400,
          headers: { ...ERROR_HEADERS, 'cache-control': ['no-store', 'no-store'] },
          body: json({ error: 'x' }),
        },
        SETTINGS,
      )[0],
    ).toMatch(/sent 2 times/);
  });

  it('refuses a content type the status does not list', () => {
    expect(answer('GET', '/api/products/abc', 400, { ...ERROR_HEADERS, 'content-type': 'text/html' }, Buffer.from('x'))[0]).toMatch(
      /content type text\/html is not among application\/json/,
    );
  });

  it('leaves pages, probes and files alone: the document is about /api', () => {
    expect(answer('GET', '/productdetails/1', 500, {}, Buffer.from('x'))).toEqual([]);
    expect(answer('GET', '/healthz', 503, {}, Buffer.from('x'))).toEqual([]);
  });

  it('matches paths as Express does: the literal route first, a trailing slash and the case ignored', () => {
    expect(checker.lookUp({ method: 'GET', url: '/api/products/categories', status: 200 })?.candidates[0]?.key).toBe(
      'get /products/categories 200',
    );
    expect(checker.lookUp({ method: 'GET', url: '/API/Products/7/', status: 200 })?.candidates[0]?.key).toBe('get /products/{id} 200');
    expect(checker.lookUp({ method: 'GET', url: '/api/products/category/image', status: 200 })?.candidates[0]?.key).toBe(
      'get /products/category/{name} 200',
    );
    expect(checker.lookUp({ method: 'DELETE', url: '/api/products', status: 405 })?.candidates[0]?.key).toBe('shared MethodNotAllowed 405');
  });
});

describe('a watched server', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A server that breaks the document in the ways a real one could: an undocumented status, a gzip body of the
    // wrong shape, through Node's own writeHead/write/end.
    server = createServer((req, res) => {
      if (req.url === '/api/products/1') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify({ id: 'one' })));
      } else if (req.url === '/api/products/categories') {
        // The response cache's way: every header in one flat list given to writeHead, none set before.
        res.writeHead(200, ['Content-Type', 'application/json', 'Cache-Control', 'no-store', 'Cache-Control', 'no-store']);
        res.end('[1]');
      } else if (req.url === '/api/products/abc') {
        // Headers set first, then more given to writeHead: Node sends them merged.
        res.setHeader('Content-Type', 'application/json');
        res.writeHead(400, ['Cache-Control', 'no-store']);
        res.end('{"error":"Invalid Product ID"}');
      } else {
        res.statusCode = 418;
        res.setHeader('Content-Type', 'application/json');
        res.write('{"error":');
        res.end('"teapot"}');
      }
    });
    watchAnswers(server, SETTINGS);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('records what breaks the document, the body read through its encoding, for the set-up file to fail the test', async () => {
    await fetch(`${url}/api/products/1`).then((res) => res.arrayBuffer());
    await fetch(`${url}/api/products`).then((res) => res.arrayBuffer());
    await fetch(`${url}/api/products/categories`).then((res) => res.arrayBuffer());
    await fetch(`${url}/api/products/abc`).then((res) => res.arrayBuffer());
    const problems = takeUndocumentedAnswers();
    expect(problems).toContainEqual(
      expect.stringMatching(/GET \/products\/\{id\} .*→ 200: the body does not match its schema: .*data\/id must be integer/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/GET \/products\/\{id\} .*→ 200: header ETag missing/));
    expect(problems).toContainEqual(expect.stringMatching(/GET \/products .*→ 418: the document lists no such answer/));
    expect(problems).toContainEqual(expect.stringMatching(/GET \/products\/categories .*→ 200: the body does not match its schema/));
    expect(problems).toContainEqual(expect.stringMatching(/GET \/products\/categories .*→ 200: header Cache-Control sent 2 times/));
    // The set header and the given one both seen: only the rate limit and CORS headers this server never sends are missing.
    expect(problems.filter((problem) => problem.includes('(GET /api/products/abc)'))).toEqual([
      expect.stringMatching(/header RateLimit missing/),
      expect.stringMatching(/header RateLimit-Policy missing/),
      expect.stringMatching(/header Access-Control-Allow-Origin missing/),
      expect.stringMatching(/header Access-Control-Expose-Headers missing/),
    ]);
  });
});

describe('a test site', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('is watched: its answers are checked, gzip and brotli bodies included', async () => {
    const checked: string[] = [];
    const checker = answerChecker();
    const original = checker.problems.bind(checker);
    checker.problems = (answer, settings) => {
      const cache = typeof answer.headers['x-cache'] === 'string' ? ` ${answer.headers['x-cache']}` : '';
      checked.push(`${answer.method} ${answer.url} ${answer.status} ${answer.body.length > 0 ? 'body' : 'empty'}${cache}`);
      return original(answer, settings);
    };
    try {
      await fetch(`${site.url}/api/products`, { headers: { 'Accept-Encoding': 'gzip' } }).then((res) => res.arrayBuffer());
      await fetch(`${site.url}/api/products/1`, { headers: { 'Accept-Encoding': 'br' } }).then((res) => res.arrayBuffer());
      // A hit: the response cache's own head, written with one writeHead(status, [name, value, …]).
      await fetch(`${site.url}/api/products/1`, { headers: { 'Accept-Encoding': 'br' } }).then((res) => res.arrayBuffer());
    } finally {
      checker.problems = original;
    }
    expect(checked).toEqual(['GET /api/products 200 body MISS', 'GET /api/products/1 200 body MISS', 'GET /api/products/1 200 body HIT']);
    expect(takeUndocumentedAnswers()).toEqual([]);
  });
});
