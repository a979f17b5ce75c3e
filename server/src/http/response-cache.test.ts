import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer } from '../build-server.js';
import { loadConfig } from '../config.js';
import { createCorsPolicy } from './cors.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createApiRateLimit } from './rate-limit.js';
import { type Answer, httpCachingPolicy } from './answer.js';
import { createResponseCache } from './response-cache.js';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { createCapturingLogger, type LogRecord } from '../testing/capturing-logger.js';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { createTestClock, type TestClock } from '@catalogue/testing/test-clock';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';

/**
 * One site as production builds it (buildServer), over the shared upstream stub and clock. Two are compared
 * throughout: `express` is the Express app alone, `production` is the whole server (the response cache in front of
 * the app).
 * Sent the same requests at the same clock time, they must answer the same bytes.
 */
interface Site {
  server: Server;
  metrics: Metrics;
  catalogue: BuiltServer['catalogue'];
  logs: LogRecord[];
}

interface Sites {
  express: Site;
  production: Site;
  stub: UpstreamStub;
  clock: TestClock;
}

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startSites(env: Record<string, string> = {}): Promise<Sites> {
  const stub = await startUpstreamStub();
  cleanups.push(() => stub.close());
  const statics = createStaticDir();
  cleanups.push(() => statics.remove());
  const clock = createTestClock();

  async function startSite(withResponseCache: boolean): Promise<Site> {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: stub.url, LOG_LEVEL: 'info', ...env });
    const { logger, records } = createCapturingLogger(config.logLevel);
    const built = await buildServer(config, { logger, now: clock.now, staticDir: statics.staticDir });
    // The production server, or its Express app alone on a server of its own.
    const server = withResponseCache ? built.server : createServer(built.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await built.catalogue.settled();
      built.catalogue.close();
    });
    return { server, metrics: built.metrics, catalogue: built.catalogue, logs: records };
  }
  return { express: await startSite(false), production: await startSite(true), stub, clock };
}

interface Exchange {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

interface WireAnswer {
  status: number;
  /** `[name, value]` as received: names as spelt, in the order sent. */
  headers: [string, string][];
  body: Buffer;
}

function send(server: Server, { method = 'GET', path, headers = {} }: Exchange): Promise<WireAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let index = 0; index < res.rawHeaders.length; index += 2) pairs.push([res.rawHeaders[index]!, res.rawHeaders[index + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Date is written by Node itself on both paths, from a string it renews once a second: its name and place are
 * compared, its value only for being a date (two requests may straddle a second).
 */
function comparable(answer: WireAnswer) {
  return {
    ...answer,
    headers: answer.headers.map(([name, value]) => {
      if (name.toLowerCase() !== 'date') return [name, value];
      expect(Number.isNaN(Date.parse(value))).toBe(false);
      return [name, '<date>'];
    }),
  };
}

/**
 * Sends the same request to both sites, and expects the same status, headers (order and spelling) and body.
 * The request carries an id unless it has one (a new one is random on either path).
 */
async function sendToBoth(sites: Sites, { headers, ...request }: Exchange): Promise<WireAnswer> {
  const exchange = { ...request, headers: { 'X-Request-Id': 'same-on-both', ...headers } };
  const fromExpress = await send(sites.express.server, exchange);
  const fromCache = await send(sites.production.server, exchange);
  expect(comparable(fromCache)).toEqual(comparable(fromExpress));
  return fromCache;
}

async function cachedAnswers(site: Site): Promise<number> {
  const metric = await site.metrics.registry.getSingleMetric('http_response_cache_answers_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

function header(answer: WireAnswer, name: string): string | undefined {
  return answer.headers.find(([candidate]) => candidate.toLowerCase() === name)?.[1];
}

const ENCODINGS = [
  ['identity', {}],
  ['gzip', { 'Accept-Encoding': 'gzip, deflate' }],
  ['br', { 'Accept-Encoding': 'gzip, deflate, br' }],
] as const;

describe('the response cache in front of Express', () => {
  describe.each(['/api/products', '/api/products/9'])('%s', (path) => {
    it.each(ENCODINGS.flatMap(([encoding, headers]) => (['GET', 'HEAD'] as const).map((method) => [method, encoding, headers] as const)))(
      "answers %s in %s exactly as Express does, with this moment's Age, max-age and RateLimit",
      async (method, _encoding, encodingHeaders) => {
        const sites = await startSites();
        const exchange = { method, path, headers: { ...encodingHeaders, 'X-Request-Id': 'trace-1' } };
        // A MISS (Express fills the cache), then a HIT, which the response cache answers.
        expect(header(await sendToBoth(sites, exchange), 'x-cache')).toBe('MISS');
        expect(await cachedAnswers(sites.production)).toBe(0);
        expect(header(await sendToBoth(sites, exchange), 'x-cache')).toBe('HIT');
        expect(await cachedAnswers(sites.production)).toBe(1);

        sites.clock.advanceSeconds(7);
        const replayed = await sendToBoth(sites, exchange);
        expect(await cachedAnswers(sites.production)).toBe(2);
        // What the equality above covers, spelt out: per-request values are this request's and this moment's.
        expect(header(replayed, 'age')).toBe('7');
        expect(header(replayed, 'cache-control')).toMatch(/^public, max-age=293, /);
        expect(header(replayed, 'ratelimit')).toBe('"600-in-1min"; r=597; t=53');
        expect(header(replayed, 'x-request-id')).toBe('trace-1');
        expect(header(replayed, 'content-security-policy')).toContain("default-src 'self'");
        expect(header(replayed, 'x-content-type-options')).toBe('nosniff');
        expect(replayed.body.length).toBe(method === 'HEAD' ? 0 : Number(header(replayed, 'content-length')));
      },
    );
  });

  it.each([
    '/api/products?limit=3',
    '/api/products?sort=desc&limit=2&utm_source=x',
    '/api/products?limit=500',
    '/api/products/categories',
    '/api/products/category/jewelery',
    `/api/products/category/${encodeURIComponent(FIXTURE_PRODUCTS[18]!.category)}?sort=desc`,
    `/api/products/category/${encodeURIComponent(FIXTURE_PRODUCTS[19]!.category)}`,
    '/api/products/category/unknown%00name?limit=1',
    '/api/products/search',
    '/api/products/search?q=shirt&sort=priceHighLow',
    '/api/products/search?category=jewelery&page=2',
  ])('answers the view %s exactly as Express does once its body is prepared', async (path) => {
    const sites = await startSites();
    // The list first, then the view: Express prepares the view's body, after which the layer answers it.
    await sendToBoth(sites, { path: '/api/products' });
    const exchange = { path, headers: { 'Accept-Encoding': 'br', 'X-Request-Id': 'trace-9' } };
    const prepared = await sendToBoth(sites, exchange);
    expect(header(prepared, 'x-cache')).toBe('HIT');
    sites.clock.advanceSeconds(3);
    // (A limit past the list's length is the list itself, answered here from the first request on.)
    const answered = await cachedAnswers(sites.production);
    const hit = await sendToBoth(sites, exchange);
    expect(await cachedAnswers(sites.production)).toBe(answered + 1);
    expect(header(hit, 'age')).toBe('3');
    const etag = header(hit, 'etag')!;
    expect((await sendToBoth(sites, { ...exchange, headers: { ...exchange.headers, 'If-None-Match': etag } })).status).toBe(304);
    expect(await cachedAnswers(sites.production)).toBe(answered + 2);
  });

  it.each(['GET', 'HEAD'] as const)(
    'answers %s of an image variant exactly as Express does, one entry per format by Accept',
    async (method) => {
      const sites = await startSites();
      for (const [accept, contentType] of [
        ['image/avif,image/webp,*/*', 'image/avif'],
        ['image/webp,*/*', 'image/webp'],
        ['*/*', 'image/png'],
      ]) {
        const exchange = { method, path: '/api/products/9/image?w=320', headers: { Accept: accept!, 'X-Request-Id': 'trace-7' } };
        expect(header(await sendToBoth(sites, exchange), 'x-cache')).toBe('MISS');
        const answered = await cachedAnswers(sites.production);
        const hit = await sendToBoth(sites, exchange);
        expect(await cachedAnswers(sites.production)).toBe(answered + 1);
        expect([header(hit, 'x-cache'), header(hit, 'content-type'), header(hit, 'vary')]).toEqual(['HIT', contentType, 'Accept']);
      }
    },
  );

  it.each([
    ['*', 'https://app.example.com', '*', 'Accept-Encoding'],
    ['https://app.example.com', 'https://app.example.com', 'https://app.example.com', 'Accept-Encoding, Origin'],
    ['https://app.example.com', 'https://evil.example.com', undefined, 'Accept-Encoding, Origin'],
  ])('answers a HIT with CORS_ORIGINS=%s and Origin: %s exactly as Express does', async (corsOrigins, origin, allowOrigin, vary) => {
    const sites = await startSites({ CORS_ORIGINS: corsOrigins });
    for (const path of ['/api/products', '/api/products/9', '/api/products/9/image?w=320']) {
      const exchange = { path, headers: { Origin: origin, 'Accept-Encoding': 'br', 'X-Request-Id': 'trace-8' } };
      await sendToBoth(sites, exchange);
      const answered = await cachedAnswers(sites.production);
      const hit = await sendToBoth(sites, exchange);
      expect(await cachedAnswers(sites.production)).toBe(answered + 1);
      expect(header(hit, 'x-cache')).toBe('HIT');
      expect(header(hit, 'access-control-allow-origin')).toBe(allowOrigin);
      expect(hit.headers.filter(([name]) => name.toLowerCase() === 'vary')).toHaveLength(1);
      expect(header(hit, 'vary')).toBe(path.includes('image') ? vary.replace('Accept-Encoding', 'Accept') : vary);
      expect(header(hit, 'access-control-allow-credentials')).toBeUndefined();
    }
  });

  it('gives each request a new id unless a plain one came with it', async () => {
    const { production } = await startSites();
    for (let count = 0; count < 2; count += 1) await send(production.server, { path: '/api/products' });
    const ids = await Promise.all(
      [1, 2].map(() => send(production.server, { path: '/api/products' }).then((answer) => header(answer, 'x-request-id'))),
    );
    expect(await cachedAnswers(production)).toBe(3);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    const replaced = await send(production.server, { path: '/api/products', headers: { 'X-Request-Id': 'bad id' } });
    expect(header(replaced, 'x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each<[string, Exchange]>([
    ['a sort it does not know', { path: '/api/products?sort=price' }],
    ['a trailing slash', { path: '/api/products/' }],
    ['another case', { path: '/API/Products' }],
    ['an escaped id', { path: '/api/products/%39' }],
    ['a product id with a query string', { path: '/api/products/9?x' }],
    ['a product id with a trailing slash', { path: '/api/products/9/' }],
    ['leading zeros', { path: '/api/products/009' }],
    ['an id beyond a safe integer', { path: '/api/products/99999999999999999999' }],
    ['a malformed escape', { path: '/api/products/%E0%A4%A' }],
    ['another method', { method: 'POST', path: '/api/products' }],
    ['another route', { path: '/api/products/9/image' }],
    ['a bad limit', { path: '/api/products?limit=0' }],
    ['a product id over the URL length limit', { path: `/api/products/${'0'.repeat(3000)}9` }],
    ['a list query over the URL length limit', { path: `/api/products?limit=3&pad=${'x'.repeat(3000)}` }],
    ['a category over the URL length limit', { path: `/api/products/category/${'x'.repeat(3000)}` }],
    ['an image variant over the URL length limit', { path: `/api/products/${'0'.repeat(3000)}9/image?w=320` }],
    ['a repeated sort', { path: '/api/products?sort=asc&sort=asc' }],
    ['an undecodable category name', { path: '/api/products/category/%E0%A4%A' }],
    ['a category with a trailing slash', { path: '/api/products/category/jewelery/' }],
    ['no category name', { path: '/api/products/category/' }],
    ['the categories in another case', { path: '/api/products/Categories' }],
  ])('leaves %s to Express, which answers as it would alone', async (_case, exchange) => {
    const sites = await startSites();
    // Every entry these spellings could name is warm: the list, the product, a limit of the list, every unknown
    // category's shared body, the jewelery category, the category names and an image variant.
    for (const path of [
      '/api/products',
      '/api/products/9',
      '/api/products/9/image?w=320',
      '/api/products?limit=3',
      '/api/products/category/x',
      '/api/products/category/jewelery',
      '/api/products/categories',
    ]) {
      await sendToBoth(sites, { path });
      await sendToBoth(sites, { path });
    }
    const answered = await cachedAnswers(sites.production);
    await sendToBoth(sites, { ...exchange, headers: { ...exchange.headers, 'X-Request-Id': 'trace-2' } });
    // Kept by the exact URL as received: another spelling of a warm entry is Express's the first time, even one
    // Express reads as the same product (leading zeros, an escaped digit).
    expect(await cachedAnswers(sites.production)).toBe(answered);
  });

  it("answers the 304 of If-None-Match itself, as Express does, for every encoding's tag", async () => {
    const sites = await startSites();
    const warm = await sendToBoth(sites, { path: '/api/products' });
    const etag = header(warm, 'etag')!;
    for (const [ifNoneMatch, status] of [
      [etag, 304],
      [`W/"other", ${etag.slice(0, -1)}-gzip"`, 304],
      ['*', 304],
      ['"other"', 200],
    ] as const) {
      const answer = await sendToBoth(sites, { path: '/api/products', headers: { 'If-None-Match': ifNoneMatch, 'Accept-Encoding': 'br' } });
      expect(answer.status).toBe(status);
    }
    expect(await cachedAnswers(sites.production)).toBe(4);
  });

  it('never answers a stale copy, and keeps the refreshed entry from the first answer Express sends from it', async () => {
    const sites = await startSites();
    const exchange = { path: '/api/products', headers: { 'X-Request-Id': 'trace-3' } };
    const first = await sendToBoth(sites, exchange);
    await sendToBoth(sites, exchange);
    await sendToBoth(sites, exchange);
    expect(await cachedAnswers(sites.production)).toBe(2);

    // Past its freshness the copy is STALE: Express serves it and refreshes it from the upstream, now changed.
    sites.stub.setProducts(FIXTURE_PRODUCTS.slice(0, 3));
    sites.clock.advanceSeconds(301);
    expect(header(await sendToBoth(sites, exchange), 'x-cache')).toBe('STALE');
    await Promise.all([sites.express.catalogue.settled(), sites.production.catalogue.settled()]);
    expect(await cachedAnswers(sites.production)).toBe(2);

    // The refreshed entry is fresh: Express answers from it once and it is kept, with its own bytes and tag.
    expect(header(await sendToBoth(sites, exchange), 'x-cache')).toBe('HIT');
    expect(await cachedAnswers(sites.production)).toBe(2);
    const replayed = await sendToBoth(sites, exchange);
    expect(await cachedAnswers(sites.production)).toBe(3);
    expect(header(replayed, 'etag')).not.toBe(header(first, 'etag'));
    expect((JSON.parse(replayed.body.toString('utf8')) as unknown[]).length).toBe(3);
  });

  it('counts its answers in the same metrics as Express', async () => {
    const sites = await startSites();
    for (const path of ['/api/products', '/api/products/9', '/api/products', '/api/products/9', '/api/products']) {
      await sendToBoth(sites, { path });
      await sendToBoth(sites, { method: 'HEAD', path });
    }
    expect(await cachedAnswers(sites.production)).toBe(8);
    // Every count (latencies differ, their counts may not), by route, method, status and cache status.
    const counts = async (site: Site) =>
      (await site.metrics.registry.metrics())
        .split('\n')
        .filter((line) => /^(http_request_duration_seconds_count|catalogue_cache_answers_total)\{/.test(line));
    const fromExpress = await counts(sites.express);
    expect(await counts(sites.production)).toEqual(fromExpress);
    expect(fromExpress).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 3');
    expect(fromExpress).toContain('http_request_duration_seconds_count{route="/api/products/:id",method="HEAD",status="200"} 2');
    expect(fromExpress).toContain('catalogue_cache_answers_total{status="HIT"} 8');
  });

  it('writes the same access log line as Express', async () => {
    const sites = await startSites();
    const exchange = { path: '/api/products/9', headers: { 'X-Request-Id': 'trace-4' } };
    for (let count = 0; count < 3; count += 1) await sendToBoth(sites, exchange);
    expect(await cachedAnswers(sites.production)).toBe(2);

    const accessLines = (site: Site) => site.logs.filter((record) => record.msg === 'request completed');
    const [fromExpress, fromCache] = [accessLines(sites.express), accessLines(sites.production)];
    expect(fromCache).toHaveLength(3);
    const last = fromCache[2]!;
    expect(last).toMatchObject({ req: { id: 'trace-4', method: 'GET', url: '/api/products/9' }, res: { statusCode: 200 }, cache: 'HIT' });
    expect(typeof last.responseTime).toBe('number');
    // Field for field and in the same order, but for when it was written and how long it took.
    const timeless = ({ time: _time, responseTime: _responseTime, ...fields }: LogRecord) => fields;
    expect(Object.keys(last)).toEqual(Object.keys(fromExpress[2]!));
    expect(timeless(last)).toEqual(timeless(fromExpress[2]!));
  });

  it('counts against the same rate limit, and leaves the 429 to Express', async () => {
    const sites = await startSites({ RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let count = 0; count < 4; count += 1)
      statuses.push((await sendToBoth(sites, { path: '/api/products', headers: { 'X-Request-Id': 'trace-5' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The second and third were the response cache's; the fourth, over the limit there too, went to Express.
    expect(await cachedAnswers(sites.production)).toBe(2);
    // Every path counts against the one budget: the product route is limited as well now.
    expect((await sendToBoth(sites, { path: '/api/products/9' })).status).toBe(429);
  });

  it('answers without a rate limit when it is off, as Express does', async () => {
    const sites = await startSites({ RATE_LIMIT_PER_MINUTE: '0' });
    for (let count = 0; count < 3; count += 1) await sendToBoth(sites, { path: '/api/products', headers: { 'X-Request-Id': 'trace-6' } });
    expect(await cachedAnswers(sites.production)).toBe(2);
  });
});

describe('what the response cache keeps', () => {
  const page = (etag: string, freshness: Answer['freshness']): Answer => ({
    body: { identity: Buffer.from(`<p>${etag}</p>`), etag: `"${etag}"` },
    contentType: 'text/html; charset=utf-8',
    vary: 'Accept, Accept-Encoding',
    cacheStatus: 'MISS',
    ageSeconds: 0,
    freshForSeconds: 60,
    ...(freshness && { freshness }),
  });

  async function start({ maxBytes }: { maxBytes?: number } = {}) {
    let at = 1_000_000;
    const fellThrough: string[] = [];
    const metrics = createMetrics();
    const { logger, records } = createCapturingLogger('info');
    const cache = createResponseCache({
      policy: httpCachingPolicy({ cacheTtlSeconds: 60, staleMaxSeconds: 600 }),
      metrics,
      logger,
      // Spent after one request: a route that counted against it could not answer twice.
      rateLimit: createApiRateLimit({ rateLimitPerMinute: 1, trustProxy: false }),
      cors: createCorsPolicy({ corsOrigins: '*' }),
      now: () => at,
      ...(maxBytes !== undefined && { maxBytes }),
    });
    const server = createServer(
      cache.inFrontOf((req, res) => {
        fellThrough.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const keep = (url: string, answer: Answer, req: Partial<IncomingMessage> = {}) =>
      cache.keep(url, req as IncomingMessage, { pattern: '/pages/:name', api: false, variesBy: (r) => r.headers?.accept ?? '' }, answer);
    return { server, fellThrough, metrics, records, keep, advance: (ms: number) => (at += ms), now: () => at };
  }

  it('sends a kept answer as HIT with its own content type and Vary, its Age and freshness as of now, outside the rate limit', async () => {
    const site = await start();
    site.keep('/pages/home', page('home', { storedAt: site.now() - 2_500, freshUntil: site.now() + 57_500 }), { headers: {} });
    for (const passed of [0, 1_000]) {
      site.advance(passed);
      const answer = await send(site.server, { path: '/pages/home', headers: { 'Accept-Encoding': 'gzip, br' } });
      expect([answer.status, answer.body.toString()]).toEqual([200, '<p>home</p>']);
      expect(header(answer, 'x-cache')).toBe('HIT');
      expect(header(answer, 'age')).toBe(passed === 0 ? '2' : '3');
      expect(header(answer, 'cache-control')).toContain(passed === 0 ? 'max-age=57' : 'max-age=56');
      expect(header(answer, 'content-type')).toBe('text/html; charset=utf-8');
      expect(header(answer, 'vary')).toBe('Accept, Accept-Encoding');
      expect(header(answer, 'ratelimit')).toBeUndefined();
      expect(header(answer, 'access-control-allow-origin')).toBeUndefined();
    }
    expect(await site.metrics.registry.metrics()).toContain(
      'http_request_duration_seconds_count{route="/pages/:name",method="GET",status="200"} 2',
    );
    expect(site.records.filter((record) => record.msg === 'request completed')).toHaveLength(2);
  });

  it('keeps by the exact URL and by what the route varies by, never an answer without freshness or past it', async () => {
    const site = await start();
    const fresh = { storedAt: site.now(), freshUntil: site.now() + 60_000 };
    site.keep('/pages/a', page('a', fresh), { headers: { accept: 'image/avif' } });
    site.keep('/pages/b', page('b', undefined), { headers: {} });
    site.keep('/pages/c', page('c', { storedAt: site.now() - 60_000, freshUntil: site.now() }), { headers: {} });
    expect((await send(site.server, { path: '/pages/a', headers: { Accept: 'image/avif' } })).body.toString()).toBe('<p>a</p>');
    for (const [path, accept] of [
      ['/pages/a', 'image/webp'],
      ['/pages/a/', 'image/avif'],
      ['/pages/b', ''],
      ['/pages/c', ''],
    ] as const)
      await send(site.server, { path, headers: { Accept: accept } });
    await send(site.server, { method: 'POST', path: '/pages/a', headers: { Accept: 'image/avif' } });
    // Fresh until the moment its entry stops being fresh; from then on Express's, which serves the stale copy.
    site.advance(60_000);
    await send(site.server, { path: '/pages/a', headers: { Accept: 'image/avif' } });
    expect(site.fellThrough).toEqual(['GET /pages/a', 'GET /pages/a/', 'GET /pages/b', 'GET /pages/c', 'POST /pages/a', 'GET /pages/a']);
  });

  it('holds at most its budget of bodies, the oldest kept going first', async () => {
    const site = await start({ maxBytes: 3 * (256 + 20) });
    const fresh = { storedAt: site.now(), freshUntil: site.now() + 60_000 };
    for (const name of ['one', 'two', 'three', 'four']) site.keep(`/pages/${name}`, page(name, fresh), { headers: {} });
    for (const name of ['one', 'two', 'three', 'four']) await send(site.server, { path: `/pages/${name}` });
    expect(site.fellThrough).toEqual(['GET /pages/one', 'GET /pages/two']);
  });
});
