import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { rawExchange } from '@catalogue/testing/raw-http';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STDOUT_BACKLOG_MAX_BYTES } from './logger.js';

// The built server (server/dist/index.js), run as its own process the way production runs it: signals, exit
// codes, stderr and the runtime's own options can only be seen from outside. Built before any test runs
// (testing/built-site.ts).
const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const children: ChildProcess[] = [];
let stub: UpstreamStub | undefined;

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

// Each test starts a process and waits for it: generous on a busy machine, and never reached by a healthy run.
describe('the server process (index.ts)', { timeout: 30_000 }, () => {
  it('exits 1 with one line naming the variable, and no stack trace, for a bad PORT', async () => {
    const { exited } = startProcess({ PORT: 'abc' });
    const { code, stderr } = await exited;
    expect(code).toBe(1);
    expect(stderr).toBe('Invalid configuration: PORT must be an integer from 0 to 65535, got "abc"\n');
  });

  it('reads REDIS_URL from REDIS_URL_FILE and logs neither the URL nor its password', async () => {
    const password = 'only-in-the-secret-file-7f3a';
    // A port nothing listens on: the shared cache is down from the start, so its failure is logged.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const folder = mkdtempSync(join(tmpdir(), 'catalogue-secret-'));
    const secret = join(folder, 'redis-url');
    writeFileSync(secret, `redis://:${password}@127.0.0.1:${port}\n`, { mode: 0o600 });
    try {
      const { child, exited, stdoutLines } = startProcess({ PORT: '0', REDIS_URL_FILE: secret });
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      const down = await firstLogLine(stdoutLines, /^Shared cache \(Redis\) unavailable/);
      expect(JSON.stringify(down.err)).toContain(`127.0.0.1:${port}`);
      child.kill('SIGTERM');
      const { stderr } = await exited;
      expect(stdout).toContain('Shared cache (Redis) unavailable');
      expect(stdout + stderr).not.toContain(password);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('exits 1 with one line naming both when REDIS_URL and REDIS_URL_FILE are set', async () => {
    const { code, stderr } = await startProcess({ REDIS_URL: 'redis://:pw@redis:6379', REDIS_URL_FILE: '/run/secrets/x' }).exited;
    expect(code).toBe(1);
    expect(stderr).toBe('Invalid configuration: REDIS_URL and REDIS_URL_FILE are both set: set one of them\n');
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

  it('takes a stop signal repeated at once as the same graceful stop (Ctrl-C under npm start arrives three times)', async () => {
    stub = await startUpstreamStub({ slowDelayMs: 300 });
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: stub.url });
    const url = String((await firstLogLine(stdoutLines, /^Serving the product catalogue at /)).url);
    await stub.setMode('slow');
    const inFlight = request(url)
      .get('/api/products')
      .then((response) => response);
    await stub.waitForRequests('/products', 1);
    // The terminal's, scripts/start.mjs's and npm's.
    for (let copy = 0; copy < 3; copy++) child.kill('SIGINT');

    expect((await inFlight).status).toBe(200);
    expect((await exited).code).toBe(0);
  });

  it('exits 1 without waiting for requests in flight on a second stop signal a second after the first', async () => {
    stub = await startUpstreamStub({ slowDelayMs: 20_000 });
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: stub.url });
    const messages: string[] = [];
    stdoutLines.on('line', (line) => messages.push(String((JSON.parse(line) as LogLine).msg)));
    await vi.waitFor(() => expect(messages.some((message) => message.startsWith('Serving'))).toBe(true), { timeout: 10_000 });
    const url = /at (\S+) /.exec(messages.find((message) => message.startsWith('Serving'))!)![1]!;
    await stub.setMode('slow');
    const inFlight = request(url)
      .get('/api/products')
      .then(
        () => 'answered',
        () => 'cut',
      );
    await stub.waitForRequests('/products', 1);
    child.kill('SIGTERM');
    await vi.waitFor(() => expect(messages.some((message) => message.startsWith('Stopping'))).toBe(true), { timeout: 10_000 });
    // Past the window in which a repeat counts as the same stop (index.ts, SAME_STOP_MS): an operator insisting.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    child.kill('SIGTERM');

    expect((await exited).code).toBe(1);
    expect(await inFlight).toBe('cut');
  });

  it('serves the embedded catalogue when no upstream is configured', async () => {
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '' });
    const started = await firstLogLine(stdoutLines, /^Serving the product catalogue at /);
    expect(started).toMatchObject({ source: 'embedded' });
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  });

  it('writes the access line of every request it answered before it exits on SIGTERM under load', async () => {
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '', RATE_LIMIT_PER_MINUTE: '0' });
    const { records, url, closed } = await everyLine(stdoutLines);

    // 50 keep-alive clients, each sending its next request as soon as the last is answered, over both paths:
    // cache hits (the response cache), misses, a query string, a 404 and a page (Express).
    const paths = ['/api/products', '/api/products/3', '/api/products?sort=nameAZ', '/api/products/99999', '/products'];
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    const answered: string[] = [];
    let loaded: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    async function client(index: number): Promise<void> {
      for (let sent = 0; ; sent += 1) {
        const id = `load-${index}-${sent}`;
        try {
          await answerOf(`${url}${paths[sent % paths.length]!}`, id, agent);
        } catch {
          return; // the server stopped taking requests
        }
        answered.push(id);
        if (answered.length === 1000) loaded();
      }
    }
    const clients = Array.from({ length: 50 }, (_, index) => client(index));
    await underLoad;
    child.kill('SIGTERM');
    await Promise.all(clients);
    agent.destroy();
    expect((await exited).code).toBe(0);
    await closed;

    const logged = new Set(records.filter((record) => record.msg === 'request completed').map((record) => record.req?.id));
    expect(answered.length).toBeGreaterThanOrEqual(1000);
    expect(answered.filter((id) => !logged.has(id))).toEqual([]);
    expect(records.at(-1)?.msg).toBe('Stopped');
  });

  it.each([
    ['an uncaught exception', 'SIGUSR2', 'Uncaught exception: exiting'],
    ['an unhandled rejection', 'SIGHUP', 'Unhandled promise rejection: exiting'],
  ] as const)('logs %s as fatal, with every line before it, and exits 1', async (_case, signal, message) => {
    // A bug on demand: the preloaded module throws (or rejects) outside any handler when signalled.
    const bug = `process.on('SIGUSR2', () => setImmediate(() => { throw new Error('bug'); })); process.on('SIGHUP', () => { void Promise.reject(new Error('bug')); });`;
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '' }, [
      '--import',
      `data:text/javascript,${encodeURIComponent(bug)}`,
    ]);
    const { records, url, closed } = await everyLine(stdoutLines);
    await request(url).get('/api/products').set('X-Request-Id', 'before-the-bug').expect(200);
    child.kill(signal);
    expect((await exited).code).toBe(1);
    await closed;
    expect(records.some((record) => record.msg === 'request completed' && record.req?.id === 'before-the-bug')).toBe(true);
    expect(records.at(-1)).toMatchObject({ level: 60, msg: message, err: { message: 'bug' } });
  });

  it("drops log lines, and counts them, rather than hold them without bound while stdout's reader takes none", async () => {
    const child = spawn(process.execPath, [ENTRY], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        PORT: '0',
        PRODUCTS_API_URL: '',
        RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = once(child, 'exit');
    const output = { stdout: '', stderr: '' };
    /** The first record on stdout or stderr whose message matches, once the process has written it. */
    const written = (stream: 'stdout' | 'stderr', message: RegExp) =>
      new Promise<LogLine & Record<string, unknown>>((resolve) => {
        const look = () => {
          const found = records(output[stream]).find((record) => message.test(record.msg));
          if (found === undefined) return;
          child[stream].off('data', look);
          resolve(found);
        };
        child[stream].on('data', look);
        look();
      });
    for (const stream of ['stdout', 'stderr'] as const)
      child[stream].setEncoding('utf8').on('data', (chunk: string) => (output[stream] += chunk));
    const url = String((await written('stdout', /^Serving the product catalogue at /)).url);
    // The reader stops reading: what the server writes now fills the pipe, then waits in the server's memory.
    child.stdout.pause();
    const dropping = written('stderr', /^Dropping log lines/);

    // Answered 414 and logged with their URLs: enough lines for twice the backlog the server may hold.
    const longUrl = `${url}/api/products?pad=${'a'.repeat(12_000)}`;
    const sent = Math.ceil((2 * STDOUT_BACKLOG_MAX_BYTES) / 12_000);
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    let next = 0;
    const client = async () => {
      for (let index = next++; index < sent; index = next++) expect(await answerOf(longUrl, `long-${index}`, agent)).toBe(414);
    };
    await Promise.all(Array.from({ length: 10 }, client));
    agent.destroy();
    const metrics = (await request(url).get('/metrics').expect(200)).text;
    const counted = Number(/^log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1]);
    expect(counted).toBeGreaterThan(0);
    expect(await dropping).toMatchObject({ level: 40 });

    // The reader reads again: the server logs again once it has taken everything queued, and says what it dropped.
    const caughtUp = written('stderr', /^Logging again/);
    child.stdout.resume();
    expect(await caughtUp).toMatchObject({ droppedLines: counted });
    await request(url).get('/api/products/1').set('X-Request-Id', 'after-catching-up').expect(200);
    child.kill('SIGTERM');
    await exited;

    const logs = records(output.stdout);
    const logged = logs.filter((record) => record.req?.id?.startsWith('long-'));
    // Every request logged or counted, and what was queued for the reader held to the bound (a turn's lines and
    // the pipe's 64 KiB above it), where keeping every line would have queued twice as much.
    expect(logged.length + counted).toBe(sent);
    const loggedBytes = logged.reduce((bytes, record) => bytes + JSON.stringify(record).length + 1, 0);
    expect(loggedBytes).toBeLessThan(STDOUT_BACKLOG_MAX_BYTES + 1024 * 1024);
    expect(logs.some((record) => record.req?.id === 'after-catching-up')).toBe(true);
    expect(logs.at(-1)?.msg).toBe('Stopped');
  });

  it("stops on SIGTERM, exit 0, when stdout's reader has stopped reading with lines still waiting for it", async () => {
    const { child, exited, stdoutLines } = startProcess({ PORT: '0', PRODUCTS_API_URL: '', RATE_LIMIT_PER_MINUTE: '0' });
    const url = String((await firstLogLine(stdoutLines, /^Serving the product catalogue at /)).url);
    child.stdout.pause();
    // 100 access lines of 12 KB: far more than the pipe's 64 KiB, so the rest waits in the server for a reader.
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    const longUrl = `${url}/api/products?pad=${'a'.repeat(12_000)}`;
    for (let index = 0; index < 100; index++) expect(await answerOf(longUrl, `unread-${index}`, agent)).toBe(414);
    agent.destroy();

    child.kill('SIGTERM');
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

interface LogLine {
  msg: string;
  level?: number;
  url?: string;
  req?: { id?: string };
}

/** The JSON lines of `text` that are complete. */
function records(text: string): (LogLine & Record<string, unknown>)[] {
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as LogLine & Record<string, unknown>);
}

/** One GET on `agent`'s keep-alive connections; resolves with the status once the whole answer has arrived. */
function answerOf(url: string, requestId: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { 'X-Request-Id': requestId } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Keeps every record the process writes on stdout; resolves once it says where it listens, with that URL and a
 * promise of the end of its output.
 */
async function everyLine(lines: Interface): Promise<{ records: LogLine[]; url: string; closed: Promise<unknown> }> {
  const records: LogLine[] = [];
  const closed = once(lines, 'close');
  const url = await new Promise<string>((resolve) => {
    lines.on('line', (line) => {
      const record = JSON.parse(line) as LogLine;
      records.push(record);
      if (record.msg.startsWith('Serving the product catalogue at ')) resolve(String(record.url));
    });
  });
  return { records, url, closed };
}
