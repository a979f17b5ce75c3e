// Imported by index.ts only when traces are on (config.ts, tracesEndpoint): with traces off, none of the SDK is
// loaded and the API stays the no-op it is (tracing/spans.ts).
import { diag, type DiagLogger, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from '../logger.js';
import { createRequestTracing, type RequestTracing } from './request-spans.js';

/** The service name spans carry unless OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
export const DEFAULT_SERVICE_NAME = 'product-catalogue';

export interface Tracing {
  requests: RequestTracing;
  /** Sends the spans still held and stops sending: at the end of a graceful stop. */
  shutdown(): Promise<void>;
}

/**
 * Registers the SDK with the OpenTelemetry API, which from then on records the spans of this server's seams. The
 * SDK reads its own standard variables (checked by config.ts first): the endpoint and headers of the OTLP/HTTP
 * exporter, the sampler (OTEL_TRACES_SAMPLER, parentbased_always_on by default), the batch's sizes and delays, the
 * resource's attributes. Its context manager is Node's AsyncLocalStorage, so that an upstream call knows the
 * request it serves: a cost paid only while traces are on (docs/performance.md, "Traces").
 */
export function startTracing(logger: Logger): Tracing {
  // The SDK's own complaints (a collector that refuses or cannot be reached) are log lines like any other.
  diag.setLogger(diagnosticsTo(logger), DiagLogLevel.WARN);
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // W3C trace context (`traceparent`, `tracestate`) in and out, and the AsyncLocalStorage context manager.
  provider.register();
  return {
    requests: createRequestTracing(),
    async shutdown() {
      // A collector that cannot be reached fails the last export, after the exporter's retries: said, never a
      // crash, and never a stop held for longer than LAST_SPANS_MAX_MS.
      const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), LAST_SPANS_MAX_MS).unref());
      try {
        if ((await Promise.race([provider.shutdown(), late])) === 'late') {
          logger.warn({ component: 'opentelemetry' }, `The last spans were not sent within ${LAST_SPANS_MAX_MS / 1000} s`);
        }
      } catch (error) {
        logger.warn({ component: 'opentelemetry', err: error }, 'The last spans were not sent');
      }
    },
  };
}

/** The longest a stop waits for the last spans to be sent. */
const LAST_SPANS_MAX_MS = 3000;

function diagnosticsTo(logger: Logger): DiagLogger {
  const say = (level: 'error' | 'warn' | 'info' | 'debug') => (message: string) => logger[level]({ component: 'opentelemetry' }, message);
  return { error: say('error'), warn: say('warn'), info: say('info'), debug: say('debug'), verbose: say('debug') };
}
