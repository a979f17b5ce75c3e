import { rawExchange } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from './testing/test-site.js';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** A request to /healthz whose headers add up to about `bytes`. */
function requestWithHeaders(bytes: number): string {
  const lines = Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => `X-Filler-${index}: ${'a'.repeat(984)}\r\n`);
  return `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`;
}

describe('buildServer', () => {
  it('serves repeated cache hits from the response cache, in front of the whole Express app', async () => {
    site = await startTestSite();
    const { url } = site;
    for (const cacheStatus of ['MISS', 'HIT', 'HIT', 'HIT']) await request(url).get('/api/products').expect('X-Cache', cacheStatus);
    await request(url).get('/healthz').expect(200, { status: 'ok' });
    await request(url).get('/').expect(200);
    const metrics = await request(url).get('/metrics').expect(200);
    expect(metrics.text).toContain('http_response_cache_answers_total 3');
    expect(metrics.text).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 4');
  });

  it('answers request headers under 16 KiB, and refuses 20 KiB of them, or a URL that long, with 431 at the socket', async () => {
    site = await startTestSite();
    const port = Number(new URL(site.url).port);
    expect((await rawExchange(port, requestWithHeaders(10_000))).status).toBe(200);
    expect((await rawExchange(port, requestWithHeaders(20_000))).status).toBe(431);
    expect((await rawExchange(port, `GET /api/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`)).status).toBe(431);
  });
});
