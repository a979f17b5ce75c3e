import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
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
