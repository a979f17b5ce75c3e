import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP receiver gets it, in the JSON encoding (ids in hex, times in nanoseconds since the epoch). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's span kinds: 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: string[];
  /** The resource's service.name. */
  service: unknown;
}

export interface OtlpReceiver {
  /** Its base URL, as OTEL_EXPORTER_OTLP_ENDPOINT names it; spans are posted to `/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  /** Resolves once the spans received satisfy `ready` (checked at once and at each post). */
  waitFor(ready: (spans: ReceivedSpan[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
  events?: { name: string }[];
}
interface OtlpExport {
  resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** An OTLP/HTTP receiver for tests: takes JSON exports (what @opentelemetry/exporter-trace-otlp-http sends) and keeps their spans. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || req.headers['content-type'] !== 'application/json') {
        res.writeHead(415).end();
        return;
      }
      spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      for (const check of waiters) check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    waitFor: (ready) =>
      new Promise((resolve) => {
        const check = () => {
          if (!ready(spans)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function spansOf(body: OtlpExport): ReceivedSpan[] {
  return body.resourceSpans.flatMap(({ resource, scopeSpans }) => {
    const service = attributesOf(resource?.attributes)['service.name'];
    return scopeSpans.flatMap(({ spans }) =>
      spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => event.name),
        service,
      })),
    );
  });
}

function attributesOf(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => {
      const [kind, raw] = Object.entries(value)[0] ?? [];
      return [key, kind === 'intValue' ? Number(raw) : raw];
    }),
  );
}

/** An HTTP hop in front of another server that notes the headers of each request it passes on. */
export interface RecordingHop {
  url: string;
  /** Requests passed on so far: path and headers. */
  seen: { path: string; headers: IncomingHttpHeaders }[];
  /** Where requests go, e.g. the upstream double's URL (set once that is started). */
  target: string;
  close(): Promise<void>;
}

export async function startRecordingHop(): Promise<RecordingHop> {
  const hop: RecordingHop = { url: '', seen: [], target: '', close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    hop.seen.push({ path: req.url ?? '', headers: req.headers });
    const onward = request(`${hop.target}${req.url ?? ''}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hop.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hop.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return hop;
}
