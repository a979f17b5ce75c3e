import { STATUS_CODES } from 'node:http';
import { MESSAGES } from '@catalogue/shared/messages';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { ProductNotFoundError, UpstreamError } from '../catalogue/product-source.js';
import type { Logger } from '../logger.js';

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
function answerCatalogueErrors(messages: FailureMessages, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (error instanceof ProductNotFoundError) {
      res.status(404).set('Cache-Control', 'no-store').json({ error: messages.notFound });
      return;
    }
    if (error instanceof UpstreamError) {
      logger.warn({ err: error, ...requestFields(req, res) }, 'The product source failed');
      res
        .status(error.timedOut ? 504 : 502)
        .set('Cache-Control', 'no-store')
        .json({ error: error.timedOut ? messages.timedOut : messages.unavailable });
      return;
    }
    next(error);
  };
}

/** The error handlers of the product API's routes, logging to `logger`. */
export function catalogueErrorHandlers(logger: Logger): Record<'product' | 'list' | 'image', ErrorRequestHandler> {
  return {
    // One product: the page shows 'Product not found' for any failure, and so does the API (docs/api.md, "Errors").
    product: answerCatalogueErrors(
      { notFound: MESSAGES.productNotFound, unavailable: MESSAGES.productNotFound, timedOut: MESSAGES.productNotFound },
      logger,
    ),
    list: answerCatalogueErrors(
      { notFound: MESSAGES.notFound, unavailable: MESSAGES.catalogueUnavailable, timedOut: MESSAGES.catalogueTimeout },
      logger,
    ),
    image: answerCatalogueErrors(
      { notFound: MESSAGES.productNotFound, unavailable: MESSAGES.catalogueUnavailable, timedOut: MESSAGES.catalogueTimeout },
      logger,
    ),
  };
}

/** A path segment Express cannot percent-decode (`%E0%A4%A`, `%zz`): said plainly, as the raised message quotes the input. */
export const MALFORMED_ESCAPE = 'The URL has a malformed percent-escape (%XX, UTF-8)';

/**
 * The app's last handler. Client errors Express raises itself keep their status, with the standard reason
 * phrase or, for a malformed `%` escape in a path (a 400), a message saying so; anything else is a 500. Never
 * a stack or a path.
 */
export const answerUnexpectedError =
  (logger: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error); // Express's own handler closes the connection: the answer cannot be changed any more.
      return;
    }
    const status = clientErrorStatus(error);
    if (status === undefined) {
      logger.error({ err: error, ...requestFields(req, res) }, 'Unexpected error');
      res.status(500).set('Cache-Control', 'no-store').json({ error: MESSAGES.internalError });
      return;
    }
    res
      .status(status)
      .set('Cache-Control', 'no-store')
      .json({ error: error instanceof URIError && status === 400 ? MALFORMED_ESCAPE : (STATUS_CODES[status] ?? 'Bad Request') });
  };

function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = 'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status <= 499 ? status : undefined;
}

/** How these lines name their request, so they join up with its access-log line (access-log.ts) by id. */
function requestFields(req: Request, res: Response) {
  return { req: { id: res.locals.requestId, method: req.method, url: req.originalUrl } };
}
