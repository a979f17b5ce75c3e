import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamClient } from './upstream-request.js';

const LIMIT = { bytes: 1024 * 1024, setting: 'UPSTREAM_MAX_BYTES' } as const;
const PIECES = 6;

describe("a streamed response's time limit", () => {
  // Answers `/prompt` in PIECES writes at once, and `/stalling` with one write and then nothing.
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (req.url === '/stalling') return void res.write('[1,');
    for (let piece = 0; piece < PIECES; piece++) res.write(Buffer.alloc(64 * 1024, 0x20));
    res.end('[]');
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('counts only the time spent waiting on the upstream, not the time the reader spends on each chunk', async () => {
    const timeoutMs = 200;
    const { chunks } = await createUpstreamClient(timeoutMs).stream(`${origin}/prompt`, LIMIT);
    let bytes = 0;
    for await (const chunk of chunks) {
      bytes += chunk.length;
      // A reader whose work on the chunks adds up to more than the whole limit (each pause shorter than it: a
      // socket silent for the limit is closed, and a fill's work on one chunk is milliseconds).
      await delay(timeoutMs / 2);
    }
    expect(bytes).toBe(PIECES * 64 * 1024 + 2);
  });

  it('still runs out when the upstream stalls mid-body', async () => {
    const { chunks } = await createUpstreamClient(200).stream(`${origin}/stalling`, LIMIT);
    const reading = (async () => {
      for await (const chunk of chunks) expect(chunk.length).toBeGreaterThan(0);
    })();
    await expect(reading).rejects.toThrow(`${origin}/stalling timed out`);
  });
});
