import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { buildServer } from './build-server.js';
import { rawExchange } from '@catalogue/testing/raw-http';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { startUpstreamStub, TINY_PNG } from '@catalogue/testing/upstream-double';

// The real server.ts, as index.ts starts it: these check that it applies the limits its configuration names.

/** A request to /healthz whose headers add up to about `bytes`. */
function requestWithHeaders(bytes: number): string {
  const lines = Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => `X-Filler-${index}: ${'a'.repeat(984)}\r\n`);
  return `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`;
}

describe('request header size (the real server)', () => {
  it('answers headers under 16 KiB, and refuses 20 KiB of them with 431 at the socket', async () => {
    const statics = createStaticDir();
    const running = await buildServer(loadConfig({ PORT: '0', HOST: '127.0.0.1' }), {
      logger: createLogger('silent'),
      staticDir: statics.staticDir,
    });
    try {
      const port = Number(new URL(await running.listen()).port);
      expect((await rawExchange(port, requestWithHeaders(10_000))).status).toBe(200);
      expect((await rawExchange(port, requestWithHeaders(20_000))).status).toBe(431);
    } finally {
      await running.close(0);
      statics.remove();
    }
  });
});

/** The real server over the stub with `env`; `use` gets its URL, and everything is closed afterwards. */
async function withRealServer(
  env: Record<string, string>,
  use: (url: string, stub: Awaited<ReturnType<typeof startUpstreamStub>>) => Promise<void>,
) {
  const stub = await startUpstreamStub();
  const statics = createStaticDir();
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: stub.url, ...env });
  const running = await buildServer(config, { logger: createLogger('silent'), staticDir: statics.staticDir });
  try {
    await use(await running.listen(), stub);
  } finally {
    await running.close(0);
    await stub.close();
    statics.remove();
  }
}

// server.ts passes config.imageMaxBytes to createHttpSource (`maxImageBytes`) and config.imageCacheMaxBytes to
// createCachedCatalogue (`imageCacheMaxBytes`), rather than leaving both at their defaults.
describe('image limits in the real server', () => {
  it('refuses an image over IMAGE_MAX_BYTES', async () => {
    await withRealServer({ IMAGE_MAX_BYTES: '1000' }, async (url, stub) => {
      stub.override('/images/3.png', { status: 200, contentType: 'image/png', body: Buffer.concat([TINY_PNG, Buffer.alloc(1000)]) });
      await request(url).get('/api/products/3/image').expect(502);
    });
  });

  it('keeps no more image bytes than IMAGE_CACHE_MAX_BYTES', async () => {
    await withRealServer({ IMAGE_CACHE_MAX_BYTES: String(2 * TINY_PNG.length) }, async (url, stub) => {
      for (const id of [1, 2, 3, 1]) await request(url).get(`/api/products/${id}/image`).expect(200);
      expect(stub.requestCount('/images/1.png')).toBe(2);
    });
  });
});
