import type { RequestHandler } from 'express';
import { pino } from 'pino';
import type { Logger } from '../logger.js';
import { requestContextOf as answerContextOf } from './request-context.js';
import type { CacheStatus } from '../outcomes/cache-status.js';

/**
 * Probes and scrapes arrive every few seconds and would drown the visitors' requests; /metrics counts them. Traces
 * leave them out too (tracing/request-spans.ts).
 */
export const UNLOGGED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** What one access-log line says about a request and its answer. */
export interface AccessRecord {
  /** requestIdFor's (logger.ts): a UUID or a plain token, nothing JSON would escape. */
  id: string;
  /** As Node's parser accepted it: a token, nothing JSON would escape. */
  method: string;
  /** As the client sent it: path and query. */
  url: string;
  statusCode: number;
  /** Whole milliseconds from the request's arrival to its answer. */
  responseTime: number;
  /** The answer's X-Cache (HIT, MISS, STALE), if it has one. */
  cache: CacheStatus | undefined;
}

/** pino's own state, which it exposes as `pino.symbols` for integrations that write for it. */
interface PinoInternals {
  [pino.symbols.streamSym]: { write(line: string): unknown };
  /** `,"time":<epoch ms>`, as the logger writes it. */
  [pino.symbols.timeSym]: () => string;
  /** The logger's base fields, serialised: `,"service":"catalogue-server"`. */
  [pino.symbols.chindingsSym]: string;
}

/**
 * Writes the access-log line of one request: the one function both paths call (the Express app through accessLog
 * below, and the response cache in front of it), so their lines cannot differ. 5xx answers are logged as errors.
 *
 * The line is the JSON `logger[level]({ req, res, responseTime, cache }, message)` would write, byte for byte
 * (access-log.test.ts holds them equal), but serialised here and handed to the logger's own stream, so it keeps
 * its place among the other lines: pino's general serialiser cost about 2.5 µs per line more (measured), a
 * tenth of what a whole cached answer costs. The URL, the one string a client chooses freely, goes through
 * JSON.stringify; the id, the method, the cache status and the message need no escaping by construction (their
 * types say why), so they are written between quotes as they are, which saves four calls into JSON.stringify per
 * line; the rest are numbers.
 */
export function logAccess(
  logger: Logger,
  { id, method, url, statusCode, responseTime, cache }: AccessRecord,
  message: 'request completed' | 'request aborted' = 'request completed',
): void {
  if (UNLOGGED_PATHS.has(url)) return;
  const level = statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const internals = logger as unknown as PinoInternals;
  internals[pino.symbols.streamSym].write(
    `{"level":${logger.levels.values[level]}${internals[pino.symbols.timeSym]()}${internals[pino.symbols.chindingsSym]}` +
      `,"req":{"id":"${id}","method":"${method}","url":${JSON.stringify(url)}}` +
      `,"res":{"statusCode":${statusCode}},"responseTime":${responseTime}` +
      `${cache === undefined ? '' : `,"cache":"${cache}"`},"msg":"${message}"}\n`,
  );
}

/**
 * For the Express app, after requestContext (request-context.ts), which gave the request its id: logs the request
 * once its answer is complete, or aborted when the client went away first.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const context = answerContextOf(res);
    // 'close' follows 'finish' for a complete answer, and comes alone when the connection dropped first.
    res.once('close', () => {
      logAccess(
        logger,
        {
          id: context.requestId,
          method: req.method,
          url: req.originalUrl,
          statusCode: res.statusCode,
          responseTime: Math.round(performance.now() - started),
          cache: context.cacheStatus,
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}
