import { MESSAGES } from '@catalogue/shared/messages';
import type { RequestHandler } from 'express';
import { API_ALLOW } from './cors.js';

function methodNotAllowed(allow: string): RequestHandler {
  return (_req, res) => {
    res.status(405).set({ Allow: allow, 'Cache-Control': 'no-store' }).json({ error: MESSAGES.methodNotAllowed });
  };
}

/**
 * The API is read-only: its routes answer GET and HEAD, and every other method with a JSON 405. OPTIONS is
 * answered on every /api path, before any route, by the CORS middleware (cors.ts), so `Allow` names it too.
 */
export const allowOnlyGetAndHead = methodNotAllowed(API_ALLOW);

/** The probes (`/healthz`, `/readyz`), outside /api and its CORS: GET and HEAD, nothing else. */
export const probesAllowOnlyGetAndHead = methodNotAllowed('GET, HEAD');
