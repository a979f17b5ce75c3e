import { Histogram, Registry } from 'prom-client';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';
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
    // The list's first answer and the image's (a photo carries X-Cache too, original or variant).
    expect(text).toContain('catalogue_cache_answers_total{status="MISS"} 2');
    expect(text).toContain('catalogue_cache_answers_total{status="HIT"} 1');
    expect(text).toContain('catalogue_cache_answers_total{status="STALE"} 1');
    expect(text).toMatch(/^# TYPE catalogue_upstream_call_duration_seconds histogram$/m);
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="list",outcome="ok"} 2');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="image",outcome="ok"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="error"} 1');
    expect(text).toContain('catalogue_upstream_call_duration_seconds_count{operation="product",outcome="timeout"} 1');
  });
});

describe("the response cache's latencies", () => {
  // Values in every bucket, on a bound, past the last bound; a 304 in a series of its own; a series Express observed too.
  const SECONDS = [0.0004, 0.001, 0.003, 0.003, 0.02, 0.7, 9.5, 12, 0.0002];

  /** The histogram's lines for one route, as prom-client writes them when it observes every value itself. */
  async function observedOneByOne(observations: [status: string, seconds: number][]): Promise<string[]> {
    const registry = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, with their latency',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    for (const [status, seconds] of observations) histogram.observe({ route: '/api/products', method: 'GET', status }, seconds);
    return histogramLines(await registry.metrics());
  }

  const histogramLines = (text: string) => text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds'));

  it('are counted in /metrics exactly as if prom-client had observed each one, and again after a scrape', async () => {
    const metrics = createMetrics();
    const record = metrics.cachedAnswerRecorder('/api/products', 'GET');
    const observations: [string, number][] = [];
    for (const seconds of SECONDS) {
      record(200, seconds);
      observations.push(['200', seconds]);
    }
    record(304, 0.002);
    observations.push(['304', 0.002]);
    expect(histogramLines(await metrics.registry.metrics())).toEqual(await observedOneByOne(observations));
    // A scrape reads the counts without using them up; later answers add to them.
    record(200, 0.004);
    observations.push(['200', 0.004]);
    const lines = histogramLines(await metrics.registry.metrics());
    expect(lines).toEqual(await observedOneByOne(observations));
    expect(lines).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 10');
    expect(lines).toContain('http_request_duration_seconds_bucket{le="0.005",route="/api/products",method="GET",status="200"} 6');
    // The JSON form (getMetricsAsJSON) counts them too.
    const json = await metrics.registry.getMetricsAsJSON();
    const counts = json
      .find((metric) => metric.name === 'http_request_duration_seconds')!
      .values.filter((value) => (value as { metricName?: string }).metricName === 'http_request_duration_seconds_count');
    expect(counts.map((value) => [value.labels.status, value.value])).toEqual([
      ['200', 10],
      ['304', 1],
    ]);
  });
});
