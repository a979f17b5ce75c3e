import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { rawExchange } from './testing/raw-http.js';
import { createStaticDir } from './testing/test-app.js';
import { transpileServer } from './testing/transpile-server.js';

/** A request to /healthz whose headers add up to about `bytes`. */
function requestWithHeaders(bytes: number): string {
  const lines = Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => `X-Filler-${index}: ${'a'.repeat(984)}\r\n`);
  return `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`;
}

describe('request header size (the real server)', () => {
  it('answers headers under 16 KiB, and refuses 20 KiB of them with 431 at the socket', async () => {
    const statics = createStaticDir();
    const running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1' }), createLogger('silent'), statics.staticDir);
    try {
      const port = Number(new URL(running.url).port);
      expect((await rawExchange(port, requestWithHeaders(10_000))).status).toBe(200);
      expect((await rawExchange(port, requestWithHeaders(20_000))).status).toBe(431);
    } finally {
      await running.close(0);
      statics.remove();
    }
  });
});

describe('request header size, whatever the runtime default', () => {
  let build: ReturnType<typeof transpileServer>;
  beforeAll(() => {
    build = transpileServer();
  }, 30_000);
  afterAll(() => build.remove());

  // `it.fails`: server.ts (owned by the hit-path work) does not yet pass `maxHeaderSize: 16 * 1024` to
  // createServer, so a NODE_OPTIONS or a future Node default moves the limit. Once it does, this test starts
  // "failing": make it a plain `it`.
  it.fails('keeps the 16 KiB limit when Node is started with --max-http-header-size=65536', async () => {
    const child = spawn(process.execPath, ['--max-http-header-size=65536', build.entry], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', PRODUCTS_API_URL: '' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let url = '';
      for await (const line of createInterface({ input: child.stdout })) {
        const record = JSON.parse(line) as { url?: string; msg?: string };
        if (record.msg?.startsWith('Serving the product catalogue at ')) {
          url = String(record.url);
          break;
        }
      }
      expect((await rawExchange(Number(new URL(url).port), requestWithHeaders(20_000))).status).toBe(431);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});
