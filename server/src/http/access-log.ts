import type { RequestHandler } from 'express';
import { logAccess, type Logger } from '../logger.js';
import { requestContextOf } from './request-context.js';

/**
 * For the Express app, after requestContext (request-context.ts), which gave the request its id: logs the request
 * once its answer is complete, or aborted when the client went away first. The line itself is logger.ts's
 * (logAccess), the same the response cache writes for the answers it sends.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const context = requestContextOf(res);
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
