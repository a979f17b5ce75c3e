import { STATUS_CODES } from 'node:http';
import { MESSAGES } from '@catalogue/shared/messages';
import type { ErrorRequestHandler } from 'express';
import { ProductNotFoundError, UpstreamError } from '../catalogue/product-source.js';

interface FailureMessages {
  notFound: string;
  unavailable: string;
  timedOut: string;
}

/**
 * Turns the catalogue's errors into JSON answers for one route: no such product → 404, upstream failure →
 * 502, upstream too slow → 504. Anything else is passed on to the app's last error handler. Error answers are
 * `no-store`, so no shared cache keeps a passing failure.
 */
function answerCatalogueErrors(messages: FailureMessages): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (error instanceof ProductNotFoundError) {
      res.status(404).set('Cache-Control', 'no-store').json({ error: messages.notFound });
      return;
    }
    if (error instanceof UpstreamError) {
      req.log.warn({ err: error }, 'The product source failed');
      res
        .status(error.timedOut ? 504 : 502)
        .set('Cache-Control', 'no-store')
        .json({ error: error.timedOut ? messages.timedOut : messages.unavailable });
      return;
    }
    next(error);
  };
}

/** One product: the page shows 'Product not found' for any failure, and so does the API (README, "HTTP API"). */
export const answerProductErrors = answerCatalogueErrors({
  notFound: MESSAGES.productNotFound,
  unavailable: MESSAGES.productNotFound,
  timedOut: MESSAGES.productNotFound,
});

export const answerListErrors = answerCatalogueErrors({
  notFound: MESSAGES.notFound,
  unavailable: MESSAGES.catalogueUnavailable,
  timedOut: MESSAGES.catalogueTimeout,
});

export const answerImageErrors = answerCatalogueErrors({
  notFound: MESSAGES.productNotFound,
  unavailable: MESSAGES.catalogueUnavailable,
  timedOut: MESSAGES.catalogueTimeout,
});

/**
 * The app's last handler. Client errors Express raises itself (a malformed `%` escape in a path is a 400) keep
 * their status with the standard reason phrase; anything else is a 500. Never a stack or a path.
 */
export const answerUnexpectedError: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) {
    next(error); // Express's own handler closes the connection: the answer cannot be changed any more.
    return;
  }
  const status = clientErrorStatus(error);
  if (status === undefined) {
    req.log.error({ err: error }, 'Unexpected error');
    res.status(500).set('Cache-Control', 'no-store').json({ error: MESSAGES.internalError });
    return;
  }
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .json({ error: STATUS_CODES[status] ?? 'Bad Request' });
};

function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = 'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status <= 499 ? status : undefined;
}
