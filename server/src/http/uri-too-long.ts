import { STATUS_CODES } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * The longest API URL (path and query) accepted. The API's own URLs are under 40 characters; 2 KiB leaves room
 * for any query a client or CDN appends, and is what browsers and proxies have long supported everywhere.
 */
export const MAX_API_URL_LENGTH = 2048;

/**
 * Refuses longer URLs with a JSON 414 before the rate limit and the routes look at them: nothing in the API
 * needs them, and each layer that parses a long URL pays for its length.
 */
export const refuseLongUrls: RequestHandler = (req, res, next) => {
  if (req.originalUrl.length <= MAX_API_URL_LENGTH) {
    next();
    return;
  }
  res.status(414).set('Cache-Control', 'no-store').json({ error: STATUS_CODES[414] });
};
