import { startTestSite, type TestSite } from '../testing/test-site.js';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('the access log', () => {
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

  it('logs an answer of 5xx as an error', async () => {
    site = await startTestSite({ config: { LOG_LEVEL: 'info' } });
    site.upstream.override('/products', 'status500');
    await request(site.server).get('/api/products').set('X-Request-Id', 'failing').expect(502);
    const line = site.logs.find((record) => record.msg === 'request completed');
    expect(line).toMatchObject({ level: 50, req: { id: 'failing' }, res: { statusCode: 502 } });
  });
});
