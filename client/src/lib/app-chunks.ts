/**
 * Preloads the app's chunk and the page's chunks that the server lists in the page's `#app-chunks` block
 * (server/src/pages/page-head.ts), all at once, so the app's start does not wait on one chunk's import after
 * another's. The entry calls it once the lead photo is painted: before that the photo has the network to itself
 * (docs/decisions/before-the-app.md, "When the app's bytes load").
 */
export function preloadAppChunks(doc: Document): void {
  const listed: unknown = JSON.parse(doc.getElementById('app-chunks')?.textContent || '[]');
  if (!Array.isArray(listed)) return;
  for (const href of listed) {
    if (typeof href !== 'string') continue;
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    doc.head.append(link);
  }
}
