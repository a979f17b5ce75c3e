import { once } from 'node:events';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';
import { rawExchange } from '@catalogue/testing/raw-http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { answerChecker } from '../testing/answer-watch.js';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { answerUnreadableRequest, UNREADABLE_REQUEST_MESSAGES } from './unreadable-requests.js';

const SETTINGS = { rateLimited: true, anyOrigin: true };

let site: TestSite;
let port: number;
beforeAll(async () => {
  // A header time limit short enough to see it act; the others as production has them.
  site = await startTestSite({ connectionLimits: { headersTimeoutMs: 300, checkIntervalMs: 100 } });
  port = Number(new URL(site.url).port);
});
afterAll(async () => {
  await site.close();
});
beforeEach(() => {
  site.logs.length = 0;
});

function refusals() {
  return site.logs.filter((record) => record.msg.startsWith('Refused a request the server could not read'));
}

/** Headers adding up to about `bytes`. */
function filler(bytes: number): string {
  return Array.from({ length: Math.ceil(bytes / 1000) }, (_, index) => `X-Filler-${index}: ${'a'.repeat(984)}\r\n`).join('');
}

describe('a request Node cannot parse', () => {
  it.each([
    ['a raw non-ASCII byte in the URL', 'GET /api/products/caf\u00e9 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'malformed'],
    ['a space in the URL', 'GET /api/products/1 2 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'malformed'],
    ['a control character in a header', 'GET /api/products HTTP/1.1\r\nHost: localhost\r\nX-Nul: a\u0000b\r\n\r\n', 400, 'malformed'],
    [
      'two different lengths',
      'GET /api/products HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n',
      400,
      'malformed',
    ],
    ['a page with a broken request line', 'GET /products HTTP/9.9 extra\r\nHost: localhost\r\n\r\n', 400, 'malformed'],
    ['headers over 16 KiB', `GET /api/products HTTP/1.1\r\nHost: localhost\r\n${filler(20_000)}\r\n`, 431, 'headersTooLarge'],
    ['a URL over 16 KiB', `GET /api/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 431, 'headersTooLarge'],
  ] as const)('%s: answered as the API answers, with a request id, in one log line', async (_name, bytes, status, message) => {
    const answer = await rawExchange(port, bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ error: UNREADABLE_REQUEST_MESSAGES[message] });
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // What the document says of a request that could not be read, checked here: it never became a request to watch.
    expect(answerChecker().problems({ method: '', url: '', ...answer, body: Buffer.from(answer.body) }, SETTINGS)).toEqual([]);
    await expect.poll(refusals).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ requestId, status, answered: true, code: expect.stringMatching(/^HPE_/) as unknown });
  });

  it('answers a HEAD it cannot parse without a body, so the connection stays readable as HTTP', async () => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write('HEAD /api/products/caf\u00e9 HTTP/1.1\r\nHost: localhost\r\n\r\n', 'latin1');
    await once(socket, 'close');
    const text = Buffer.concat(received).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/\r\nContent-Length: \d+\r\n/);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('is refused 408 when its headers do not all arrive within the header time limit, and the connection closed', async () => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write('GET /api/products HTTP/1.1\r\nHost: localhost\r\n');
    // Nothing more is sent: only the server's own limit can end this.
    await once(socket, 'close');
    const text = Buffer.concat(received).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(text.endsWith(JSON.stringify({ error: UNREADABLE_REQUEST_MESSAGES.timeout }))).toBe(true);
    await expect.poll(refusals).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ status: 408, code: 'ERR_HTTP_REQUEST_TIMEOUT' });
  });
});

describe('the Host header', () => {
  it.each([
    ['given twice, on the API', 'GET /api/products HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n'],
    ['given twice, on a page', 'GET /productdetails/1 HTTP/1.1\r\nHost: localhost\r\nhost: evil.example\r\n\r\n'],
    ['missing in HTTP/1.1', 'GET /api/products HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['given twice in HTTP/1.0', 'GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n'],
  ])('%s: refused 400 as the API answers, nothing reached', async (_name, bytes) => {
    site.apiRequests.length = 0;
    const before = site.upstream.requestCount();
    const answer = await rawExchange(port, bytes);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: UNREADABLE_REQUEST_MESSAGES.host });
    expect(answer.headers['x-request-id']).toBeDefined();
    expect(answer.headers.connection).toBe('close');
    expect(site.upstream.requestCount()).toBe(before);
    await expect.poll(() => refusals().map((r) => JSON.stringify(r))).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ status: 400, requestId: answer.headers['x-request-id'] });
  });

  it('may be missing in HTTP/1.0, and once is a request like any other', async () => {
    expect((await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    expect((await rawExchange(port, 'GET /api/products/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status).toBe(200);
    expect(refusals()).toEqual([]);
  });
});

describe('the clientError listener', () => {
  /** Both ends of a real TCP connection. */
  async function socketPair(): Promise<{ ours: Socket; theirs: Socket; close(): void }> {
    const server = createTcpServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const theirs = connect((server.address() as { port: number }).port, '127.0.0.1');
    const [ours] = (await once(server, 'connection')) as [Socket];
    return { ours, theirs, close: () => server.close() };
  }

  it('never throws, and closes what it cannot answer: a connection already gone, a reset, an error without a code', async () => {
    const { logger, records } = createCapturingLogger('warn');
    const listener = answerUnreadableRequest(logger);

    const gone = await socketPair();
    gone.ours.destroy();
    expect(() => listener(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), gone.ours)).not.toThrow();
    expect(records.at(-1)).toMatchObject({ status: 400, answered: false });
    gone.close();

    const reset = await socketPair();
    expect(() => listener(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), reset.ours)).not.toThrow();
    expect(reset.ours.destroyed).toBe(true);
    // A client that went away is not a malformed request: no line.
    expect(records).toHaveLength(1);
    reset.theirs.destroy();
    reset.close();

    const bare = await socketPair();
    expect(() => listener(new Error('something else'), bare.ours)).not.toThrow();
    bare.theirs.resume();
    await once(bare.theirs, 'end');
    expect(records.at(-1)).toMatchObject({ status: 400, answered: true });
    bare.theirs.destroy();
    bare.close();
  });
});
