import type { RequestHandler } from 'express';

/** The API is read-only: its routes answer GET and HEAD, and every other method with a JSON 405. */
export const allowOnlyGetAndHead: RequestHandler = (_req, res) => {
  res.status(405).set({ Allow: 'GET, HEAD', 'Cache-Control': 'no-store' }).json({ error: 'Method not allowed' });
};
