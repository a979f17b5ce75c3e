import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { startTestSite, type TestSite } from '@catalogue/testing/test-site';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('security headers', () => {
  it.each(['/', '/api/products', '/api/products/1/image', '/api/nope', '/api/products/abc'])(
    'sends them on %s: a tight CSP, nosniff, no referrer, framing refused, Express hidden',
    async (path) => {
      site = await startTestSite();
      const response = await request(site.server).get(path);
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(response.headers['content-security-policy']);
      if (path.endsWith('/image')) {
        // An image opened on its own (an SVG can hold scripts) gets no sources at all.
        expect(csp).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
        return;
      }
      const directives = new Map(
        csp.split(';').map((directive) => {
          const [name = '', ...values] = directive.trim().split(/\s+/);
          return [name, values.join(' ')] as const;
        }),
      );
      expect(directives.get('default-src')).toBe("'self'");
      expect(directives.get('script-src')).toBe("'self'");
      expect(directives.get('img-src')).toBe("'self'");
      expect(directives.get('connect-src')).toBe("'self'");
      // styled-components writes <style> elements at run time: only 'unsafe-inline' lets them apply.
      expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(directives.get('object-src')).toBe("'none'");
      expect(directives.get('frame-ancestors')).toBe("'none'");
    },
  );
});

describe('rate limiting on /api', () => {
  it('answers 429 JSON with Retry-After past the limit', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '2' } });
    await request(site.server).get('/api/products').expect(200);
    await request(site.server).get('/api/products/1').expect(200);
    const limited = await request(site.server).get('/api/products/1/image').expect(429);
    expect(limited.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect(limited.headers['cache-control']).toBe('no-store');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  });

  it('never limits the probes and the scrape, even for an address that has spent its budget', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1' } });
    await request(site.server).get('/api/products').expect(200);
    await request(site.server).get('/api/products').expect(429);
    for (let round = 0; round < 5; round += 1) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const response = await request(site.server).get(path).expect(200);
        expect(response.headers.ratelimit).toBeUndefined();
      }
    }
  });

  it('gives no fresh budget for a forged X-Forwarded-For without TRUST_PROXY', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '3' } });
    const statuses: number[] = [];
    for (let index = 1; index <= 6; index += 1) {
      const response = await request(site.server).get('/api/products').set('X-Forwarded-For', `198.51.100.${index}`);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('never meets a visitor browsing quickly at the default limit', async () => {
    site = await startTestSite();
    expect(site.config.rateLimitPerMinute).toBe(600);
    const ids = FIXTURE_PRODUCTS.map((product) => product.id);
    // A minute of brisk browsing with the browser's cache off: the home page and the products page with every
    // card's image, six product pages with theirs, and back to the list (its 20 images again) twice.
    const paths = [
      '/api/products',
      ...ids.map((id) => `/api/products/${id}/image`),
      ...ids.slice(0, 6).flatMap((id) => [`/api/products/${id}`, `/api/products/${id}/image`]),
      ...[1, 2].flatMap(() => ['/api/products', ...ids.map((id) => `/api/products/${id}/image`)]),
    ];
    expect(paths.length).toBeGreaterThanOrEqual(30 + 6);
    const responses = await Promise.all(paths.map((path) => request(site!.server).get(path)));
    expect(responses.filter((response) => response.status !== 200).map((response) => response.status)).toEqual([]);
  });
});

describe('GET /metrics', () => {
  it('names requests by route and status with a latency histogram, cache hits, misses and stale, upstream calls, errors and timeouts', async () => {
    site = await startTestSite({ config: { CACHE_TTL_SECONDS: '60', UPSTREAM_TIMEOUT_MS: '100' } });
    const { server, upstream, clock, catalogue } = site;
    await request(server).get('/api/products').expect(200);
    await request(server).get('/api/products').expect(200);
    await request(server).get('/api/products/1/image').expect(200);
    clock.advanceSeconds(61);
    await request(server).get('/api/products').expect(200).expect('X-Cache', 'STALE');
    await catalogue.settled();
    upstream.override('/products/2', 'status500');
    await request(server).get('/api/products/2').expect(502);
    upstream.override('/products/3', 'hang');
    await request(server).get('/api/products/3').expect(504);

    const text = (await request(server).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/products",method="GET",status="200"\} \d+$/m);
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 3');
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products/:id",method="GET",status="502"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="/api/products/:id",method="GET",status="504"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="MISS"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="HIT"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="STALE"} 1');
    expect(text).toMatch(/^# TYPE catalogue_upstream_call_duration_seconds histogram$/m);
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="list",outcome="ok"} 2');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="image",outcome="ok"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="error"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="timeout"} 1');
  });
});

describe('GET /readyz', () => {
  it('answers 503 while the upstream is down and nothing is cached, and 200 from a cached copy while /healthz stays 200', async () => {
    site = await startTestSite({ config: { CACHE_TTL_SECONDS: '60' } });
    const { server, upstream, clock } = site;
    await upstream.setMode('refuse');
    await request(server).get('/readyz').expect(503, { status: 'unavailable' });
    await request(server).get('/healthz').expect(200, { status: 'ok' });

    await upstream.setMode('normal');
    await request(server).get('/api/products/1').expect(200);
    await upstream.setMode('refuse');
    clock.advanceSeconds(61); // stale, still within STALE_MAX_SECONDS: still servable
    await request(server).get('/readyz').expect(200, { status: 'ready' });
  });
});
