import type { Response } from 'express';

/** A Host header that names no site this server answers for (public-origin.ts). */
export const BAD_HOST = 'Bad Request: the Host header does not name this site\n';

/**
 * When the catalogue could not answer (503), how soon to come back: it asks its source again on the next request,
 * and the app in the browser retries within about that long.
 */
export const RETRY_AFTER_SECONDS = 30;

/** A plain-text answer the pages slice gives when it has no page to show (a bad Host, no build, no sitemap). */
export function sendText(res: Response, status: number, text: string): void {
  res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(text);
}
