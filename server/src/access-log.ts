import type { RequestHandler } from 'express';
import { type Logger, requestIdFor } from './logger.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request's id (X-Request-Id), set by accessLog below. */
    requestId?: string;
  }
}

/** Probes and scrapes arrive every few seconds and would drown the visitors' requests; /metrics counts them. */
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** What one access-log line says about a request and its answer. */
export interface AccessRecord {
  id: string;
  method: string;
  /** As the client sent it: path and query. */
  url: string;
  statusCode: number;
  /** Whole milliseconds from the request's arrival to its answer. */
  responseTime: number;
  /** The answer's X-Cache (HIT, MISS, STALE), if it has one. */
  cache: string | undefined;
}

/**
 * Writes the access-log line of one request: the one function both paths call (the Express app through accessLog
 * below, and the response cache in front of it), so their lines cannot differ. 5xx answers are logged as errors.
 */
export function logAccess(
  logger: Logger,
  { id, method, url, statusCode, responseTime, cache }: AccessRecord,
  message = 'request completed',
): void {
  if (UNLOGGED_PATHS.has(url)) return;
  const level = statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level]({ req: { id, method, url }, res: { statusCode }, responseTime, cache }, message);
}

/**
 * For the Express app: gives the request its id (sent back as X-Request-Id, kept in `res.locals.requestId`) and
 * logs it once its answer is complete, or aborted when the client went away first.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const id = requestIdFor(req);
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    // 'close' follows 'finish' for a complete answer, and comes alone when the connection dropped first.
    res.once('close', () => {
      const cache = res.getHeader('X-Cache');
      logAccess(
        logger,
        {
          id,
          method: req.method,
          url: req.originalUrl,
          statusCode: res.statusCode,
          responseTime: Math.round(performance.now() - started),
          cache: typeof cache === 'string' ? cache : undefined,
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}
