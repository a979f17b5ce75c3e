import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from './testing/test-site.js';

/**
 * Slow clients against the server's own time limits (docs/operations.md, "Slow clients"): while many connections
 * send their headers a line at a time and never finish, other clients are still answered at once, and every slow
 * connection is closed by the server, with a 408, once its header limit has passed. The limits are production's,
 * shortened so the test takes seconds (the idle keep-alive one is not); SLOW_CLIENTS, SLOW_CLIENT_HEADERS_MS and
 * SLOW_CLIENT_DRIBBLE_MS run it larger, as for docs/performance.md's figures (500 connections, production's 10 s, a
 * line a second).
 */
const SLOW_CLIENTS = Number(process.env.SLOW_CLIENTS ?? 200);
const HEADERS_TIMEOUT_MS = Number(process.env.SLOW_CLIENT_HEADERS_MS ?? 2_000);
const CHECK_INTERVAL_MS = 250;
/** How often a slow client sends one more header line: far faster than the header limit, so only the limit ends it. */
const DRIBBLE_EVERY_MS = Number(process.env.SLOW_CLIENT_DRIBBLE_MS ?? 100);

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite({
    config: { RATE_LIMIT_PER_MINUTE: '0' },
    connectionLimits: {
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: HEADERS_TIMEOUT_MS * 2,
      checkIntervalMs: CHECK_INTERVAL_MS,
    },
  });
});
afterAll(async () => {
  await site.close();
});

interface SlowClient {
  /** When its first byte was sent (performance.now()). */
  startedAt: number;
  /** When the server closed it, if it has. */
  closedAt?: number;
  received: Buffer[];
  socket: Socket;
  closed: Promise<void>;
}

/** A connection that sends a request line and then one header line every DRIBBLE_EVERY_MS, never the blank line. */
function startSlowClient(port: number, index: number): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      // A reset while the server closes it is still the server closing it.
      socket.on('error', () => {});
      const client: SlowClient = { startedAt: performance.now(), received: [], socket, closed: Promise.resolve() };
      socket.on('data', (chunk: Buffer) => client.received.push(chunk));
      socket.write(`GET /api/products/${(index % 20) + 1} HTTP/1.1\r\nHost: localhost\r\n`);
      let line = 0;
      const dribble = setInterval(() => {
        if (socket.writable) socket.write(`X-Slow-${line++}: ${'a'.repeat(8)}\r\n`);
      }, DRIBBLE_EVERY_MS);
      client.closed = once(socket, 'close').then(() => {
        clearInterval(dribble);
        client.closedAt = performance.now();
      });
      resolve(client);
    });
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One GET: its time from sending to the whole answer, and when the whole answer had come (performance.now()). */
function timedGet(url: string, agent?: Agent): Promise<{ status: number; ms: number; at: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = get(url, { ...(agent && { agent }) }, (res) => {
      res.resume();
      res.on('end', () => {
        const at = performance.now();
        resolve({ status: res.statusCode ?? 0, ms: at - started, at, reused: req.reusedSocket });
      });
    });
    req.on('error', reject);
  });
}

describe(`${SLOW_CLIENTS} connections dribbling their headers`, () => {
  it('leave other clients answered at once, and are each closed by the server’s header limit', async () => {
    const port = Number(new URL(site.url).port);
    // A keep-alive client that asked once before: its idle connection must outlive the header limit.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await timedGet(`${site.url}/api/products/1`, keepAlive)).status).toBe(200);

    const slow: SlowClient[] = [];
    for (let index = 0; index < SLOW_CLIENTS; index += 1) slow.push(await startSlowClient(port, index));
    const allStarted = performance.now();

    // Others, each on a connection of its own as a new visitor would be, until the first slow one is cut.
    const latencies: number[] = [];
    const arrivals: number[] = [];
    const paths = ['/api/products/1', '/api/products', '/api/products/search?q=bag', '/healthz', '/api/products/categories'];
    while (slow.every((client) => client.closedAt === undefined)) {
      const answers = await Promise.all(paths.map((path) => timedGet(`${site.url}${path}`)));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        latencies.push(answer.ms);
        arrivals.push(answer.at);
      }
    }

    await Promise.all(slow.map((client) => client.closed));
    const firstClosed = Math.min(...slow.map((client) => client.closedAt!));
    const lastClosed = Math.max(...slow.map((client) => client.closedAt!));
    const lifetimes = slow.map((client) => client.closedAt! - client.startedAt).sort((a, b) => a - b);

    // The idle keep-alive connection, older than the header limit by now, still answers.
    const again = await timedGet(`${site.url}/api/products/1`, keepAlive);
    keepAlive.destroy();

    const sorted = [...latencies].sort((a, b) => a - b);
    console.info(
      `slow clients: ${SLOW_CLIENTS} dribbling a line every ${DRIBBLE_EVERY_MS} ms, header limit ${HEADERS_TIMEOUT_MS} ms; others: ${sorted.length} requests, ` +
        `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ` +
        `slow ones closed after ${(lifetimes[0]! / 1000).toFixed(2)}–${(lifetimes.at(-1)! / 1000).toFixed(2)} s, ` +
        `all within ${((lastClosed - allStarted) / 1000).toFixed(2)} s of the last one starting`,
    );

    // Others were asked while every slow connection was open, and answered before the server cut the first of them:
    // a server that queued them behind the slow ones would answer none until then. (The figures printed are the
    // point; how fast the others are answered depends on the machine, so no bound on their time is asserted.)
    expect(sorted.length).toBeGreaterThanOrEqual(paths.length);
    expect(arrivals.filter((at) => at < firstClosed).length).toBeGreaterThan(0);
    // Every slow connection was closed by the server (the test never closes one), none before its limit, each with
    // a 408 as the API answers.
    expect(lifetimes[0]).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS);
    expect(lifetimes.at(-1)).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 5_000);
    for (const client of slow) {
      const answer = Buffer.concat(client.received).toString('utf8');
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(answer.endsWith('{"error":"The request did not arrive in time"}')).toBe(true);
    }
    expect(again).toMatchObject({ status: 200, reused: true });
    // One log line per slow connection, none more.
    await expect
      .poll(() => site.logs.filter((record) => record.msg.startsWith('Refused a request the server could not read (408)')).length)
      .toBe(SLOW_CLIENTS);
  }, 120_000);
});
