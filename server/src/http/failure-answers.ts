import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { requestFields } from './errors.js';

/** What went wrong behind a route, as HTTP tells it: nothing there, its source failed, or its source was too slow. */
export type Failure = 'not-found' | 'unavailable' | 'timed-out';

/**
 * An error that says which Failure it is. The catalogue's errors (ProductNotFoundError, UpstreamError) extend it,
 * so this layer maps them to statuses without knowing the catalogue.
 */
export abstract class FailureError extends Error {
  abstract readonly failure: Failure;
}

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
