import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('the probes', () => {
  it('answers /healthz with 200 {"status":"ok"}, also while the upstream is down', async () => {
    site = await startTestSite();
    await site.upstream.setMode('refuse');
    const response = await request(site.server).get('/healthz').expect(200, { status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    await request(site.server).head('/healthz').expect(200);
    await request(site.server).post('/healthz').expect(405).expect('Allow', 'GET, HEAD');
  });

  it('answers /readyz with 200 when the source answers, and warms the cache doing so', async () => {
    site = await startTestSite();
    await request(site.server).get('/readyz').expect(200, { status: 'ready' });
    await request(site.server).get('/api/products').expect('X-Cache', 'HIT');
  });

  it('answers /readyz with 503 while the source fails and nothing is cached, and 200 from any copy held, even a stale one, while /healthz stays 200', async () => {
    site = await startTestSite({ config: { CACHE_TTL_SECONDS: '60' } });
    const { server, upstream, clock } = site;
    await upstream.setMode('refuse');
    await request(server).get('/readyz').expect(503, { status: 'unavailable' });
    await request(server).get('/healthz').expect(200, { status: 'ok' });

    await upstream.setMode('normal');
    upstream.override('/products', 'status500');
    await request(server).get('/readyz').expect(503, { status: 'unavailable' });
    // One product's copy is enough, though the list still fails.
    await request(server).get('/api/products/1').expect(200);
    await request(server).get('/readyz').expect(200);

    await upstream.setMode('refuse');
    clock.advanceSeconds(61); // stale, still within STALE_MAX_SECONDS: still servable
    await request(server).get('/readyz').expect(200, { status: 'ready' });
  });

  it('answers /readyz with 503 when the list held cannot answer from its database, in one log line and its metrics', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'probes-'));
    site = await startTestSite({ config: { CATALOGUE_DATA_DIR: dataDir } });
    const { server, logs, metrics } = site;
    try {
      await request(server).get('/readyz').expect(200, { status: 'ready' });
      const [database] = readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('products.sqlite'));
      // The disk lost the file's contents under the open database.
      truncateSync(join(dataDir, database!), 0);
      await request(server).get('/readyz').expect(503, { status: 'unavailable' });
      await request(server).get('/readyz').expect(503, { status: 'unavailable' });
      expect(logs.filter((record) => record.msg === 'Not ready: /readyz answers 503')).toMatchObject([
        { level: 50, reason: 'list_broken' },
      ]);
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/^catalogue_ready 0$/m);
      expect(text).toMatch(/^catalogue_readiness_failures_total\{reason="list_broken"\} 2$/m);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
