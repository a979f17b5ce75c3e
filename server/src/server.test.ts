import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { type BuiltServer, buildServer } from './build-server.js';
import { createCapturingLogger } from '@catalogue/testing/capturing-logger';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';

let running: BuiltServer | undefined;
let stub: UpstreamStub | undefined;
let statics: ReturnType<typeof createStaticDir> | undefined;

afterEach(async () => {
  await running?.close(0);
  await stub?.close();
  statics?.remove();
  running = stub = statics = undefined;
});

describe('buildServer', () => {
  it('serves repeated cache hits from the response cache, in front of the whole Express app', async () => {
    stub = await startUpstreamStub();
    statics = createStaticDir();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: stub.url });
    running = await buildServer(config, { logger: createCapturingLogger().logger, staticDir: statics.staticDir });
    const url = await running.listen();

    for (const cacheStatus of ['MISS', 'HIT', 'HIT', 'HIT']) await request(url).get('/api/products').expect('X-Cache', cacheStatus);
    await request(url).get('/healthz').expect(200, { status: 'ok' });
    await request(url).get('/').expect(200);
    const metrics = await request(url).get('/metrics').expect(200);
    expect(metrics.text).toContain('http_hit_path_answers_total 3');
    expect(metrics.text).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 4');
  });
});
