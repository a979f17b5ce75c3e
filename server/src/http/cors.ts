import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import { requestContextOf } from './request-context.js';
import type { CorsHeaders } from './answer.js';

/** What a script on another origin may read of an answer besides the basic headers: caching, tracing, the rate limit. */
export const EXPOSED_HEADERS = 'ETag, Age, X-Cache, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After';
export const ALLOWED_METHODS = 'GET, HEAD';
/** The `Allow` of every /api path: its methods, and OPTIONS, which the middleware below answers on all of them. */
export const API_ALLOW = `${ALLOWED_METHODS}, OPTIONS`;
/** How long a browser may reuse a preflight's answer: two hours, Chromium's own ceiling. */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * CORS for `/api` (docs/api.md, "CORS"): public, read-only data, so any listed origin (or any origin, with `*`)
 * may read every answer, errors included, and never with credentials: no `Access-Control-Allow-Credentials`,
 * so browsers send no cookies and `*` stays safe. Pages, `/metrics` and the probes get none of it.
 */
export interface CorsPolicy {
  /** The one rule, for both paths that answer `/api`: the Express middleware and the response cache. */
  headersFor(origin: string | undefined): CorsHeaders;
  /**
   * For Express, in front of everything else under `/api` (the 414, the rate limit, the routes): works out the
   * request's CORS headers into its RequestContext (request-context.ts; the writer sends them) and answers `OPTIONS`
   * itself, so a preflight is never rate limited nor counted.
   */
  readonly middleware: RequestHandler;
}

/** A comma-separated list of header names (RFC 9110 tokens), as a preflight's Access-Control-Request-Headers is. */
const HEADER_NAME_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

export function createCorsPolicy({ corsOrigins }: Pick<Config, 'corsOrigins'>): CorsPolicy {
  const headersFor = corsHeadersFor(corsOrigins);

  return {
    headersFor,
    middleware: (req, res, next) => {
      const cors = headersFor(req.headers.origin);
      requestContextOf(res).cors = cors;
      if (req.method !== 'OPTIONS') {
        next();
        return;
      }
      res.set({ Allow: API_ALLOW, 'Cache-Control': 'no-store' });
      const isPreflight = req.headers['access-control-request-method'] !== undefined;
      if (isPreflight && cors.headers.length > 0) {
        res.set({ 'Access-Control-Allow-Methods': ALLOWED_METHODS, 'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS) });
        // Any header the script wants to send may come: the data is public and no credentials are ever allowed.
        const requested = req.headers['access-control-request-headers']?.trim();
        if (requested !== undefined && HEADER_NAME_LIST.test(requested)) res.set('Access-Control-Allow-Headers', requested);
        res.vary('Access-Control-Request-Headers');
      }
      res.status(204).end();
    },
  };
}

function allowed(origin: string): string[] {
  return ['Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSED_HEADERS];
}

function corsHeadersFor(corsOrigins: Config['corsOrigins']): CorsPolicy['headersFor'] {
  if (corsOrigins === '*') {
    // The same for every request, so a shared cache may keep one copy for all origins.
    const any: CorsHeaders = { headers: allowed('*'), varyOrigin: false, resourcePolicy: 'cross-origin' };
    return () => any;
  }
  // Each listed origin's headers made once, not per request.
  const listed = new Map(
    corsOrigins.map((origin): [string, CorsHeaders] => [origin, { headers: allowed(origin), varyOrigin: true, resourcePolicy: undefined }]),
  );
  // A request without Origin, or from an origin not listed, gets no Allow-Origin: the browser keeps the
  // answer from the script. The answer still varies by Origin, so no cache hands it to a listed one.
  const refused: CorsHeaders = { headers: [], varyOrigin: true, resourcePolicy: undefined };
  return (origin) => (origin === undefined ? undefined : listed.get(origin)) ?? refused;
}
