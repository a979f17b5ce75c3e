import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { rawExchange } from '@catalogue/testing/raw-http';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import request from 'supertest';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// The built server (server/dist/index.js), run as its own process the way production runs it: signals, exit
// codes, stderr and the runtime's own options can only be seen from outside.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const children: ChildProcess[] = [];
let stub: UpstreamStub | undefined;

beforeAll(() => {
  // Incremental: only what changed since the last build is compiled.
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b', 'server'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}, 120_000);

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await stub?.close();
  stub = undefined;
});

function startProcess(env: Record<string, string>, nodeOptions: string[] = []) {
  const child = spawn(process.execPath, [...nodeOptions, ENTRY], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  const stdoutLines = createInterface({ input: child.stdout });
  return { child, exited, stdoutLines };
}

async function firstLogLine(lines: AsyncIterable<string>, message: RegExp): Promise<Record<string, unknown>> {
  for await (const line of lines) {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (typeof record.msg === 'string' && message.test(record.msg)) return record;
  }
  throw new Error(`the server never logged ${message}`);
}

describe('the server process (index.ts)', () => {
  it('exits 1 with one line naming the variable, and no stack trace, for a bad PORT', async () => {
    const { exited } = startProcess({ PORT: 'abc' });
    const { code, stderr } = await exited;
    expect(code).toBe(1);
    expect(stderr).toBe('Invalid configuration: PORT must be an integer from 0 to 65535, got "abc"\n');
  });

  it('exits 1 with one line when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { code, stderr } = await startProcess({ PORT: String(port) }).exited;
      expect(code).toBe(1);
      expect(stderr).toBe(`Cannot listen on 127.0.0.1:${port}: the port is already in use (set PORT to another one)\n`);
    } finally {
      blocker.close();
    }
  });

  it('logs where it listens, then on SIGTERM finishes the request in flight and exits 0', async () => {
    stub = await startUpstreamStub({ slowDelayMs: 300 });
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: stub.url });
    const started = await firstLogLine(stdoutLines, /^Serving the product catalogue at /);
    expect(started).toMatchObject({ source: 'http' });
    const url = String(started.url);
    expect(started.msg).toBe(`Serving the product catalogue at ${url} (source: http)`);

    await request(url).get('/healthz').expect(200);
    await stub.setMode('slow');
    // supertest sends on `then`, so chain one now to have the request really in flight.
    const inFlight = request(url)
      .get('/api/products')
      .then((response) => response);
    await stub.waitForRequests('/products', 1);
    child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(20);
    const { code } = await exited;
    expect(code).toBe(0);
  });

  it('serves the embedded catalogue when no upstream is configured', async () => {
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '' });
    const started = await firstLogLine(stdoutLines, /^Serving the product catalogue at /);
    expect(started).toMatchObject({ source: 'embedded' });
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  });

  // buildServer passes `maxHeaderSize: 16 * 1024` to createServer, so neither NODE_OPTIONS nor a future Node
  // default moves the limit.
  it('keeps the 16 KiB request-header limit when Node is started with --max-http-header-size=65536', async () => {
    const { child, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '' }, ['--max-http-header-size=65536']);
    const started = await firstLogLine(stdoutLines, /^Serving the product catalogue at /);
    expect((await rawExchange(Number(new URL(String(started.url)).port), requestWithHeaders(20_000))).status).toBe(431);
    child.kill('SIGTERM');
  });
});

/** A request to /healthz whose headers add up to about `bytes`. */
function requestWithHeaders(bytes: number): string {
  const lines = Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => `X-Filler-${index}: ${'a'.repeat(984)}\r\n`);
  return `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${lines.join('')}Connection: close\r\n\r\n`;
}
