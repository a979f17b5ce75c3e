import type { RequestListener } from 'node:http';
import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Response } from 'express';
import { requestIdFor, UNLOGGED_PATHS } from '../logger.js';
import { routePatternOf } from '../http/metrics.js';
import type { CacheLookup } from '../http/response-cache.js';
import { tracer } from './spans.js';

/** What buildServer wires in when traces are on: a span around every request, and the response cache's word on it. */
export interface RequestTracing {
  /** `listener` with each request in a server span of its own, the child of the `traceparent` it came with. */
  traced(listener: RequestListener): RequestListener;
  /** The response cache looked the request up: an event on its span, and the route's pattern when it answered. */
  cacheLookedUp: CacheLookup;
}

/** A request's span named as `/metrics` names its route (`GET /api/products/:id`). */
function nameByRoute(span: Span, method: string, route: string): void {
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}

export function createRequestTracing(): RequestTracing {
  return {
    traced: (listener) => (req, res) => {
      // Probes and scrapes, every few seconds, as the access log leaves them out.
      if (UNLOGGED_PATHS.has(req.url ?? '')) return listener(req, res);
      // The id every later reader takes (requestIdFor reads the header): logs and the span name the same request.
      const requestId = (req.headers['x-request-id'] = requestIdFor(req));
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const method = req.method ?? 'GET';
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            'url.path': (req.url ?? '/').split('?', 1)[0],
            'url.scheme': 'http',
            'catalogue.request_id': requestId,
            ...(req.headers['user-agent'] !== undefined && { 'user_agent.original': req.headers['user-agent'] }),
          },
        },
        parent,
      );
      res.once('close', () => {
        // A route Express answered for; one the response cache answered was named then (cacheLookedUp), and a path
        // no route serves keeps the method alone.
        const route = routePatternOf(req);
        if (route !== 'other') nameByRoute(span, method, route);
        span.setAttribute('http.response.status_code', res.statusCode);
        // The catalogue's own cache (HIT, MISS, STALE) as the Express path's answer says it (http/request-context.ts).
        const cacheStatus = (res as Partial<Response>).locals?.requestContext?.cacheStatus;
        if (cacheStatus !== undefined) span.setAttribute('catalogue.cache', cacheStatus);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        if (!res.writableFinished) span.setAttribute('catalogue.answer_cut', true);
        span.end();
      });
      context.with(trace.setSpan(parent, span), () => listener(req, res));
    },
    cacheLookedUp(req, outcome, pattern) {
      // The response cache looks a request up as `traced` hands it over, within its span's context: the active span.
      const span = trace.getActiveSpan();
      if (span === undefined) return;
      span.addEvent(`response cache ${outcome}`, pattern === undefined ? {} : { 'http.route': pattern });
      if (pattern !== undefined) {
        nameByRoute(span, req.method ?? 'GET', pattern);
        span.setAttribute('catalogue.cache', 'HIT');
      }
    },
  };
}
