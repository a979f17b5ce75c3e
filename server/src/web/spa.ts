import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import compression from 'compression';
import express, { type RequestHandler, Router } from 'express';
import type { Logger } from '../logger.js';

export interface SpaOptions {
  /** The built client (`client/dist`): `index.html` and hashed files under `assets/`. */
  staticDir: string;
  logger: Logger;
}

/** Vite names files under /assets/ by content hash, so a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html above all) must be revalidated, so a new build is picked up at once. */
const REVALIDATE = 'no-cache';

/** The client router's own pages answer 200; any other path gets the same page with 404 (the client shows its not-found screen). */
const APP_ROUTES = Object.values(PAGE_PATHS).map((pattern) => new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '[^/]+')}$`));

export function isAppRoute(path: string): boolean {
  const withoutTrailingSlash = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return APP_ROUTES.some((route) => route.test(withoutTrailingSlash));
}

/**
 * The single-page app: static files, then `index.html` for every other GET or HEAD (history fallback).
 * express.static (send) refuses `..` segments, encoded or not, and NUL bytes, and those requests fall through
 * to the fallback, which only ever sends `index.html` from `staticDir`: nothing outside it is read.
 */
export function createSpa({ staticDir, logger }: SpaOptions): Router {
  const assetsDir = join(staticDir, 'assets') + sep;
  if (!existsSync(join(staticDir, 'index.html'))) {
    logger.warn({ staticDir }, 'The client is not built: pages answer 503 until `npm run build` has run');
  }

  const router = Router();
  // Only static files are compressed here: API answers carry their own prepared encodings.
  router.use(compression());
  router.use(
    express.static(staticDir, {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders: (res, filePath) => res.setHeader('Cache-Control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE),
    }),
  );
  router.use(historyFallback(staticDir));
  return router;
}

function historyFallback(staticDir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    res.status(isAppRoute(req.path) ? 200 : 404).set('Cache-Control', REVALIDATE);
    res.sendFile('index.html', { root: staticDir, cacheControl: false }, (error?: NodeJS.ErrnoException) => {
      if (error === undefined) return;
      // The client went away (mid-file, or before it began): nothing left to answer, and nothing went wrong here.
      if (res.headersSent || error.code === 'ECONNABORTED') return;
      if (error.code === 'ENOENT') {
        res.status(503).type('text/plain').send('The site is not built yet: run `npm run build`, then restart the server.\n');
        return;
      }
      next(error);
    });
  };
}
