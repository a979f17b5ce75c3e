import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import type { CachedCatalogue } from './catalogue/cached-catalogue.js';
import { loadConfig } from './config.js';
import { createMetrics } from './metrics.js';
import { createCapturingLogger } from '@catalogue/testing/capturing-logger';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { startTestSite, type TestSite } from '@catalogue/testing/test-site';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('createApp', () => {
  it('answers /healthz with 200 {"status":"ok"}, also while the upstream is down', async () => {
    site = await startTestSite();
    await site.upstream.setMode('refuse');
    const response = await request(site.server).get('/healthz').expect(200, { status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    await request(site.server).head('/healthz').expect(200);
    await request(site.server).post('/healthz').expect(405).expect('Allow', 'GET, HEAD');
  });

  it.each(['/api', '/api/', '/api/nope', '/api/products/1/extra', '/api/categories'])('answers %s with a JSON 404', async (path) => {
    site = await startTestSite();
    await request(site.server).get(path).expect(404, { error: MESSAGES.notFound });
    await request(site.server).delete(path).expect(404, { error: MESSAGES.notFound });
    expect(site.upstream.requestCount()).toBe(0);
  });

  it('answers other methods on page paths with a JSON 404', async () => {
    site = await startTestSite();
    await request(site.server).post('/products').expect(404, { error: MESSAGES.notFound });
  });

  it('sends security headers and a small content security policy, and hides Express', async () => {
    site = await startTestSite();
    const response = await request(site.server).get('/').expect(200);
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('gives every request an id, reusing a well-formed incoming one', async () => {
    site = await startTestSite();
    const fresh = await request(site.server).get('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const reused = await request(site.server).get('/healthz').set('X-Request-Id', 'edge-42');
    expect(reused.headers['x-request-id']).toBe('edge-42');
    const replaced = await request(site.server).get('/healthz').set('X-Request-Id', 'bad id\twith spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id\twith spaces');
  });

  it('logs each request with its id, status, latency and cache status, but not probes', async () => {
    site = await startTestSite({ config: { LOG_LEVEL: 'info' } });
    await request(site.server).get('/api/products/1').set('X-Request-Id', 'trace-me').expect(200);
    await request(site.server).get('/healthz').expect(200);
    const lines = site.logs.filter((record) => record.msg === 'request completed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      req: { id: 'trace-me', method: 'GET', url: '/api/products/1' },
      res: { statusCode: 200 },
      cache: 'MISS',
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
  });

  it('answers an unexpected failure with a bare 500, never a stack or a path', async () => {
    const failing: CachedCatalogue = {
      sourceName: 'broken',
      listProducts: () => Promise.reject(new Error('boom in /srv/app/secret.ts')),
      getProduct: () => Promise.reject(new TypeError('cannot read x of undefined')),
      getProductImage: () => Promise.reject(new Error('boom')),
      getProductImageVariant: () => Promise.reject(new Error('boom')),
      peekProductImageVariant: () => undefined,
      peekListHit: () => undefined,
      peekProductHit: () => undefined,
      hasAnyCopy: () => false,
      sharedCacheState: () => 'off',
      settled: () => Promise.resolve(),
      close: () => undefined,
    };
    const { logger, records } = createCapturingLogger('error');
    const statics = createStaticDir();
    try {
      const config = loadConfig({});
      const app = createApp({
        config,
        catalogue: failing,
        logger,
        metrics: createMetrics(),
        staticDir: statics.staticDir,
        rateLimit: null,
      });
      for (const path of ['/api/products', '/api/products/1']) {
        const response = await request(app).get(path).expect(500);
        expect(response.body).toEqual({ error: MESSAGES.internalError });
        expect(response.text).not.toMatch(/secret|\.ts|at |undefined/);
      }
      expect(records.some((record) => record.msg === 'Unexpected error')).toBe(true);
    } finally {
      statics.remove();
    }
  });

  it('answers /readyz with 200 when the source answers, and warms the cache doing so', async () => {
    site = await startTestSite();
    await request(site.server).get('/readyz').expect(200, { status: 'ready' });
    await request(site.server).get('/api/products').expect('X-Cache', 'HIT');
  });

  it('answers /readyz with 503 when the source fails and nothing is cached, 200 once a copy is held', async () => {
    site = await startTestSite();
    site.upstream.override('/products', 'status500');
    await request(site.server).get('/readyz').expect(503, { status: 'unavailable' });
    await request(site.server).get('/api/products/1').expect(200);
    await request(site.server).get('/readyz').expect(200);
  });
});

describe('rate limiting', () => {
  it('answers 429 JSON past RATE_LIMIT_PER_MINUTE API requests from one address, with RateLimit headers', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '3' } });
    for (let count = 0; count < 3; count += 1) await request(site.server).get('/api/products').expect(200);
    const limited = await request(site.server).get('/api/products/1').expect(429);
    expect(limited.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect(limited.headers.ratelimit).toMatch(/; r=0;/);
    // Pages and probes are not API requests.
    await request(site.server).get('/products').expect(200);
    await request(site.server).get('/healthz').expect(200);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '0' } });
    for (let count = 0; count < 20; count += 1) await request(site.server).get('/api/products').expect(200);
  });

  it('tells clients apart by X-Forwarded-For only with TRUST_PROXY', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'true' } });
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.1').expect(200);
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.2').expect(200);
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.2').expect(429);
    await site.close();

    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1' } });
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.1').expect(200);
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.2').expect(429);
  });
});

describe('GET /metrics', () => {
  it('counts requests by route and status, cache answers, and upstream calls by outcome', async () => {
    site = await startTestSite();
    await request(site.server).get('/api/products/1').expect(200);
    await request(site.server).get('/api/products/1').expect(200);
    await request(site.server).get('/api/products/999').expect(404);
    site.upstream.override('/products', 'status500');
    await request(site.server).get('/api/products').expect(502);

    const response = await request(site.server).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.text;
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products/:id",method="GET",status="200"} 2');
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products/:id",method="GET",status="404"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="502"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="MISS"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="HIT"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="ok"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="not_found"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="list",outcome="error"} 1');
  });
});
