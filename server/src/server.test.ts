import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { type RunningServer, startServer } from './server.js';
import { createCapturingLogger, createStaticDir } from './testing/test-app.js';
import { startUpstreamStub, type UpstreamStub } from './testing/upstream-stub.js';

let running: RunningServer | undefined;
let stub: UpstreamStub | undefined;
let statics: ReturnType<typeof createStaticDir> | undefined;

afterEach(async () => {
  await running?.close(0);
  await stub?.close();
  statics?.remove();
  running = stub = statics = undefined;
});

describe('startServer', () => {
  it('serves repeated cache hits from the hit path, in front of the whole Express app', async () => {
    stub = await startUpstreamStub();
    statics = createStaticDir();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: stub.url });
    running = await startServer(config, createCapturingLogger().logger, statics.staticDir);

    for (const cacheStatus of ['MISS', 'HIT', 'HIT', 'HIT']) await request(running.url).get('/api/products').expect('X-Cache', cacheStatus);
    await request(running.url).get('/healthz').expect(200, { status: 'ok' });
    await request(running.url).get('/').expect(200);
    const metrics = await request(running.url).get('/metrics').expect(200);
    expect(metrics.text).toContain('http_hit_path_answers_total 2');
    expect(metrics.text).toContain('http_request_duration_seconds_count{route="/api/products",method="GET",status="200"} 4');
  });
});
