import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findNginx, NGINX_INSTALL_HINT, type NginxServer, startNginxServer } from '@catalogue/testing/nginx-server';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, type RecordingHop, startOtlpReceiver, startRecordingHop } from '../testing/otlp-receiver.js';

// Traces as an operator turns them on: the built server (server/dist/index.js) run as its own process with the
// standard OTEL_* variables, its real OTLP/HTTP exporter posting to a receiver here, the upstream double behind a
// hop that notes the headers it is sent, and Debian's nginx (deploy/nginx/nginx.conf) in front for the page.
const ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const SERVER = 2;
const CLIENT = 3;

// As the tests behind nginx do (deploy/nginx/behind-nginx.test.ts): without nginx the page goes to the replica
// directly, except in CI, where a missing nginx is a failure (startNginxServer throws, naming the command).
const nginxMissing = findNginx() === undefined && !process.env.CI;
if (nginxMissing) console.warn(`The traced page goes to the replica without nginx: nginx is not installed (${NGINX_INSTALL_HINT})`);

let receiver: OtlpReceiver;
let hop: RecordingHop;
let stub: UpstreamStub;
let server: ChildProcess;
let site: string;
let nginx: NginxServer | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  hop = await startRecordingHop();
  // Photos named on the hop's origin, so that their downloads pass it too.
  stub = await startUpstreamStub({ photos: true, imageOrigin: hop.url });
  hop.target = stub.url;
  server = spawn(process.execPath, [ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      PRODUCTS_API_URL: hop.url,
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'catalogue-under-test',
      // Sent within 20 ms of ending rather than the default 5 s: the test waits for what it asserts, not a timer.
      OTEL_BSP_SCHEDULE_DELAY: '20',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  site = await servingUrl(server);
  if (!nginxMissing) nginx = await startNginxServer({ replicas: { ports: [Number(new URL(site).port)] } });
});

afterAll(async () => {
  await nginx?.stop();
  server.kill('SIGKILL');
  await Promise.all([hop.close(), stub.close(), receiver.close()]);
});

async function servingUrl(child: ChildProcess): Promise<string> {
  for await (const line of createInterface({ input: child.stdout! })) {
    const record = JSON.parse(line) as { msg?: string; url?: string };
    if (record.msg?.startsWith('Serving the product catalogue')) return record.url ?? '';
  }
  throw new Error('the server never said where it serves');
}

/** A new trace's id and its caller's span id, and the `traceparent` that names them (sampled). */
function incomingTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

async function get(url: string, traceparent: string): Promise<Response> {
  const response = await fetch(url, { headers: { traceparent } });
  await response.arrayBuffer();
  return response;
}

/** The trace's spans once its server span, which ends last, has arrived. */
async function traceOf(traceId: string): Promise<ReceivedSpan[]> {
  await receiver.waitFor((spans) => spans.some((span) => span.traceId === traceId && span.kind === SERVER));
  return receiver.spans.filter((span) => span.traceId === traceId);
}

function descendantsOf(root: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const children = spans.filter((span) => span.parentSpanId === root.spanId);
  return children.flatMap((child) => [child, ...descendantsOf(child, spans)]);
}

/** The `traceparent` each upstream request on `path` arrived with. */
function upstreamTraceparents(path: string): string[] {
  return hop.seen.filter((request) => request.path === path).map((request) => String(request.headers.traceparent));
}

describe('traces, with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  // First: the list is filled by the first request that needs it, and a product page needs it too (its related
  // products), so this test must come before any page's.
  it("follow the list's fill to the upstream, and name a response cache miss and hit by the route", async () => {
    const first = incomingTrace();
    await get(`${site}/api/products?limit=2`, first.traceparent);
    const second = incomingTrace();
    const cached = await get(`${site}/api/products?limit=2`, second.traceparent);
    expect(cached.headers.get('x-cache')).toBe('HIT');

    // The first: not in the response cache; the list filled on a thread of its own, which has no SDK but sent
    // the fill span's traceparent; the view asked of the list.
    const spans = await traceOf(first.traceId);
    const miss = spans.find((span) => span.kind === SERVER)!;
    expect(miss).toMatchObject({ name: 'GET /api/products', parentSpanId: first.spanId, events: ['response cache miss'] });
    const fill = spans.find((span) => span.name === 'list fill');
    expect(fill).toMatchObject({ parentSpanId: miss.spanId, attributes: { 'url.full': `${hop.url}/products` } });
    expect(upstreamTraceparents('/products')).toEqual([`00-${first.traceId}-${fill!.spanId}-01`]);
    const question = spans.find((span) => span.name === 'list question');
    expect(question?.parentSpanId).toBe(miss.spanId);
    expect(question?.attributes['catalogue.list.question']).toMatch(/\w/);

    // The second: answered by the response cache, in front of Express, with no child.
    const hit = await traceOf(second.traceId);
    expect(hit).toHaveLength(1);
    expect(hit[0]).toMatchObject({ name: 'GET /api/products', parentSpanId: second.spanId, events: ['response cache hit'] });
    expect(hit[0]!.attributes).toMatchObject({ 'catalogue.cache': 'HIT', 'http.route': '/api/products', 'http.response.status_code': 200 });
  });

  it('follow an uncached product page from the traceparent it came with to the upstream', async () => {
    const incoming = incomingTrace();
    const page = await get(`${nginx?.url ?? site}/productdetails/3`, incoming.traceparent);
    expect(page.status).toBe(200);
    if (nginx) expect(page.headers.get('x-proxy-cache')).toBe('MISS');

    const spans = await traceOf(incoming.traceId);
    const [request] = spans.filter((span) => span.kind === SERVER);
    // The replica's span is the child of the caller's, through nginx, which passed the header on as it came.
    expect(request).toMatchObject({ name: 'GET /productdetails/:id', parentSpanId: incoming.spanId, service: 'catalogue-under-test' });
    expect(request!.attributes).toMatchObject({ 'http.route': '/productdetails/:id', 'http.response.status_code': 200 });
    expect(request!.attributes['catalogue.request_id']).toMatch(/\S/);
    // Everything else in the trace hangs from it.
    expect(descendantsOf(request!, spans)).toHaveLength(spans.length - 1);

    // The product asked of the upstream: a client span whose id the upstream was sent, in the caller's trace.
    const call = spans.find((span) => span.kind === CLIENT);
    expect(call).toMatchObject({ name: 'GET', parentSpanId: request!.spanId });
    expect(call!.attributes).toMatchObject({ 'url.full': `${hop.url}/products/3`, 'http.response.status_code': 200 });
    expect(upstreamTraceparents('/products/3')).toEqual([`00-${incoming.traceId}-${call!.spanId}-01`]);
    // The request's span ends last and lasts as long as its children at least.
    for (const span of spans) expect(span.endNs <= request!.endNs && span.startNs >= request!.startNs).toBe(true);
    if (process.env.SHOW_TRACE)
      console.info(`${describeTrace(spans)}\nthe upstream received: ${upstreamTraceparents('/products/3').join(', ')}`);
  });

  it("follow a caller's decision not to sample: nothing recorded, the decision passed on to the upstream", async () => {
    const unsampled = incomingTrace();
    const product = await get(`${site}/api/products/4`, unsampled.traceparent.replace(/01$/, '00'));
    expect(product.status).toBe(200);
    const [sent] = upstreamTraceparents('/products/4');
    expect(sent).toMatch(new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`));
    const after = incomingTrace();
    await get(`${site}/api/products/1`, after.traceparent);
    // Spans are sent in the order they end: once the later request's has arrived, any of the first's would have too.
    await traceOf(after.traceId);
    expect(receiver.spans.filter((span) => span.traceId === unsampled.traceId)).toEqual([]);
  });

  it('leave probes and scrapes out, as the access log does', async () => {
    const probe = incomingTrace();
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await get(`${site}${path}`, probe.traceparent)).status).toBe(200);
    const after = incomingTrace();
    await get(`${site}/api/products/1`, after.traceparent);
    // Spans are sent in the order they end: once the later request's has arrived, a probe's would have too.
    await traceOf(after.traceId);
    expect(receiver.spans.filter((span) => span.traceId === probe.traceId)).toEqual([]);
  });

  it("follow a photo's download and resize", async () => {
    const incoming = incomingTrace();
    const photo = await get(`${site}/api/products/1/image?w=160`, incoming.traceparent);
    expect(photo.headers.get('content-type')).toMatch(/^image\//);

    const spans = await traceOf(incoming.traceId);
    const request = spans.find((span) => span.kind === SERVER)!;
    expect(request.name).toBe('GET /api/products/:id/image');
    const descendants = descendantsOf(request, spans).map((span) => span.name);
    expect(descendants).toEqual(expect.arrayContaining(['GET', 'resize image']));
    const download = spans.find((span) => span.kind === CLIENT && String(span.attributes['url.full']).endsWith('/photos/1.jpg'))!;
    expect(upstreamTraceparents('/photos/1.jpg')).toContain(`00-${incoming.traceId}-${download.spanId}-01`);
  });
});

/** The trace as a table, for a person: each span indented under its parent, with its kind, duration and ids. */
function describeTrace(spans: ReceivedSpan[]): string {
  const lines: string[] = [];
  const byStart = [...spans].sort((a, b) => Number(a.startNs - b.startNs));
  const visit = (parent: string, depth: number) => {
    for (const span of byStart.filter((candidate) => candidate.parentSpanId === parent)) {
      const ms = (Number(span.endNs - span.startNs) / 1e6).toFixed(1);
      const url = JSON.stringify(span.attributes['url.full'] ?? span.attributes['http.route'] ?? '');
      const id = span.attributes['catalogue.request_id'];
      lines.push(
        `${'  '.repeat(depth)}${span.name} [${['', 'internal', 'server', 'client'][span.kind]}] ${ms} ms ${url}${typeof id === 'string' ? ` request id ${id}` : ''} span=${span.spanId} parent=${span.parentSpanId}`,
      );
      visit(span.spanId, depth + 1);
    }
  };
  const root = spans.find((span) => span.kind === SERVER)!;
  lines.push(`trace ${root.traceId}, caller's span ${root.parentSpanId}`);
  visit(root.parentSpanId, 0);
  return lines.join('\n');
}

describe('traces, with a collector that cannot be reached', () => {
  it('serve on, say so, and stop cleanly with exit code 0', async () => {
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const child = spawn(process.execPath, [ENTRY], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_BSP_SCHEDULE_DELAY: '20',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const url = await servingUrl(child);
      // Read on, past the line readline stopped at.
      child.stdout.resume();
      expect((await fetch(`${url}/api/products`)).status).toBe(200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(stdout).toContain('"component":"opentelemetry"');
      expect(stdout).not.toContain('Unhandled promise rejection');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
