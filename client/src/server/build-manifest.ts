import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Manifest } from 'vite';

/**
 * Vite's manifest of the browser build (dist/.vite/manifest.json, beside the built entry's dist/server/), read once
 * when the server loads the renderer: where each page's chunks went. Tests render from the TypeScript files, where
 * nothing is built and so there is nothing to preload.
 */
export const BUILD_MANIFEST: Manifest = import.meta.env.PROD
  ? (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '.vite', 'manifest.json'), 'utf8')) as Manifest)
  : {};
