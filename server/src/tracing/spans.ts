import { type Attributes, context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The spans of this server's own seams (docs/operations.md, "Traces"), through the OpenTelemetry API alone. Until
 * start-tracing.ts registers the SDK, which it does only when traces are on, every call here is the API's no-op:
 * no span is recorded, no header written, and no async hook or context store is installed.
 */
export const tracer = trace.getTracer('product-catalogue');

/** Runs `work` in a span of its own, a child of the active one; a throw marks the span as an error and is rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The W3C trace-context headers (`traceparent`, `tracestate`) naming the active span: none while traces are off. */
export function traceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * One call to the upstream (or an image host) as a client span, its trace-context headers handed to `call` to
 * send: the upstream sees the trace this server's span belongs to.
 */
export function upstreamCallSpan<Answer extends { status: number }>(
  url: string,
  call: (headers: Record<string, string>) => Promise<Answer>,
): Promise<Answer> {
  const { hostname, port, protocol } = new URL(url);
  const attributes = {
    'http.request.method': 'GET',
    'url.full': url,
    'server.address': hostname,
    'server.port': Number(port || (protocol === 'https:' ? 443 : 80)),
  };
  return inSpan(
    'GET',
    attributes,
    async (span) => {
      const answer = await call(traceHeaders());
      span.setAttribute('http.response.status_code', answer.status);
      if (answer.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      return answer;
    },
    SpanKind.CLIENT,
  );
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
