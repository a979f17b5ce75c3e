import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import compression from 'compression';
import express, { type RequestHandler, Router } from 'express';
import type { Slice } from '../http/slice.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set when express.static sends a file: what the compression below applies to. */
    staticFile?: boolean;
  }
}

export interface StaticFilesOptions {
  /** The built client (`client/dist`): hashed files under `assets/`, and the public files beside them. */
  staticDir: string;
}

/** Vite names files under /assets/ by content hash, so a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The other public files (logo, theme script) keep their names across builds: revalidated, so a new build shows at once. */
const REVALIDATE = 'no-cache';
/**
 * The page template, never sent as it is: pages are rendered (pages/). The built client's folders other than
 * assets/ (the server renderer in server/, Vite's manifest in .vite/) are not served either.
 */
const TEMPLATE = 'index.html';

/**
 * The built client's static files: `/assets/*` and the files at the top of the build (client/public's), nothing
 * else; every other GET goes on to the pages. express.static (send) refuses `..` segments, encoded or not, and
 * NUL bytes, and only files listed at start-up are looked for at the top, so nothing outside those is read.
 */
export function createStaticFilesSlice({ staticDir }: StaticFilesOptions): Slice {
  const topFiles = new Set(
    listFiles(staticDir)
      .filter((name) => name !== TEMPLATE)
      .map((name) => `/${name}`),
  );
  // One folder's files with their lifetime, marked for the compression below.
  const serve = (dir: string, cacheControl: string) =>
    express.static(dir, {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders: (res) => {
        res.locals.staticFile = true;
        res.setHeader('Cache-Control', cacheControl);
      },
    });

  const router = Router();
  // Only static files are compressed here: pages and API answers carry their own prepared encodings.
  router.use(compression({ filter: (req, res) => res.locals.staticFile === true && compression.filter(req, res) }));
  router.use('/assets', serve(join(staticDir, 'assets'), IMMUTABLE));
  const topLevel = serve(staticDir, REVALIDATE);
  const onlyListedFiles: RequestHandler = (req, res, next) => (topFiles.has(req.path) ? topLevel(req, res, next) : next());
  router.use(onlyListedFiles);
  return { mount: 'site', router, close: () => undefined };
}

/** The regular files directly in `dir`; none when it does not exist (the client is not built). */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
