import type { Manifest } from 'vite';

/**
 * The files a page links in its head so the app can take it over as soon as the lead photo is painted: the app's
 * chunk (which the entry imports then, main.tsx), the page's lazy chunks (`sources`, their paths in Vite's build
 * manifest) and what they import, with their stylesheets; not the entry itself, the page's own script. The head
 * links the scripts at low priority (server/src/pages/page-head.ts): they load beside the lead photo instead of after
 * it, without taking its bandwidth first (docs/performance.md, "Takeover and interactions").
 */
export function pagePreloads(manifest: Manifest, sources: readonly string[]): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (entry === undefined) return [];
  const seen = new Set([entry]);
  return [...(manifest[entry]?.dynamicImports ?? []), ...sources].flatMap((key) => chunkFiles(manifest, key, seen));
}

function chunkFiles(manifest: Manifest, key: string, seen: Set<string>): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [
    `/${chunk.file}`,
    ...(chunk.css ?? []).map((css) => `/${css}`),
    ...(chunk.imports ?? []).flatMap((imported) => chunkFiles(manifest, imported, seen)),
  ];
}
