import { MESSAGES } from '@catalogue/shared/messages';
import type { ErrorRequestHandler } from 'express';
import { requestFields } from './errors.js';
import type { Logger } from '../logger.js';
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
