import type { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import onHeaders from 'on-headers';
import { requestIdFor } from '../logger.js';
import type { CacheStatus } from '../outcomes/cache-status.js';
import { type RequestHeaders, requestHead } from './answer.js';

/**
 * One request on the Express path, as middleware works it out: the headers its answer opens with (RequestHeaders:
 * the id here, then the CORS and rate-limit middleware add theirs), and what the access log and the metrics read
 * once the answer is sent.
 */
export interface RequestContext extends RequestHeaders {
  /** The X-Cache of a cached answer, set by sendCachedAnswer: the access log and the metrics count by it. */
  cacheStatus: CacheStatus | undefined;
  /** Set by sendCachedAnswer before it writes a prepared answer, whose head already holds every header. */
  headWritten: boolean;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set by requestContext, first of all middleware. */
    requestContext?: RequestContext;
  }
}

/**
 * First of the Express app's middleware: gives the request its id (one rule with the response cache, logger.ts)
 * and its RequestContext. Nothing is set on the response here, nor by the CORS and rate-limit middleware after
 * it: a cached answer is written whole by writeAnswer (answer.ts); every other answer (errors, static files, the
 * metrics, pages' error pages) gets requestHead's headers added as its head is written (on-headers), after the
 * route's own and never in place of one the route set itself (an image's own CSP). One rule, in one place.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const context: RequestContext = {
    requestId: requestIdFor(req),
    rateLimit: undefined,
    cors: undefined,
    cacheStatus: undefined,
    headWritten: false,
  };
  res.locals.requestContext = context;
  onHeaders(res, function (this: ServerResponse) {
    if (!context.headWritten) writeRequestHead(this, context);
  });
  next();
};

/** The request's RequestContext; requestContext runs before everything that asks. */
export function requestContextOf(res: Response): RequestContext {
  const context = res.locals.requestContext;
  if (context === undefined) throw new Error('requestContext must be the Express app’s first middleware');
  return context;
}

function writeRequestHead(res: ServerResponse, context: RequestContext): void {
  const head = requestHead(context, undefined);
  for (let index = 0; index < head.length; index += 2) {
    const name = head[index]!;
    if (!res.hasHeader(name)) res.setHeader(name, head[index + 1]!);
  }
  if (context.cors?.varyOrigin) {
    const vary = res.getHeader('Vary');
    res.setHeader('Vary', vary === undefined ? 'Origin' : `${String(vary)}, Origin`);
  }
}
