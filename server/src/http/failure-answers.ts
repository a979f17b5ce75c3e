import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { type Failure, FailureError } from '../outcomes/failure.js';
import { requestFields } from './errors.js';

const STATUS: Record<Failure, number> = { 'not-found': 404, unavailable: 502, 'timed-out': 504 };

/**
 * A route's answers to failures, with its own message for each (docs/api.md, "Errors"): not found → 404, the
 * source failed → 502 (logged), too slow → 504 (logged). Error answers are `no-store`, so no shared cache keeps a
 * passing failure. Anything else is passed on to the app's last error handler.
 */
export function answerFailures(messages: Readonly<Record<Failure, string>>, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (!(error instanceof FailureError)) return next(error);
    if (error.failure !== 'not-found') logger.warn({ err: error, ...requestFields(req, res) }, 'The product source failed');
    res.status(STATUS[error.failure]).set('Cache-Control', 'no-store').json({ error: messages[error.failure] });
  };
}
