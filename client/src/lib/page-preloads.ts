import type { Manifest } from 'vite';

/**
 * The files a page needs for the app to take it over: the app's chunk (which the entry imports once the lead photo is
 * painted, main.tsx), the page's lazy chunks (`modulePaths`, their paths in Vite's build manifest) and what they import,
 * with their stylesheets; not the entry itself, the page's own script. The head links the stylesheets and lists the
 * scripts (server/src/pages/page-head.ts), which the entry preloads together when it starts the app (app-chunks.ts).
 */
export function pagePreloads(manifest: Manifest, modulePaths: readonly string[]): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (entry === undefined) return [];
  const seen = new Set([entry]);
  return [...(manifest[entry]?.dynamicImports ?? []), ...modulePaths].flatMap((key) => chunkFiles(manifest, key, seen));
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
