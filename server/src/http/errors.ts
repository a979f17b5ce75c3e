import { STATUS_CODES } from 'node:http';
import { MESSAGES } from '@catalogue/shared/messages';
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from '../logger.js';

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

/** How an error's log line names its request, so it joins up with its access-log line (access-log.ts) by id. */
export function requestFields(req: Request, res: Response) {
  return { req: { id: res.locals.requestContext?.requestId, method: req.method, url: req.originalUrl } };
}
