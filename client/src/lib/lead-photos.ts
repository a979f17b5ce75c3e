/**
 * The longest the app waits for the lead photos before it starts anyway: a photo that never arrives must not keep
 * the page's buttons dead. The server's page works without the app meanwhile (links, the list's form).
 */
const LEAD_PHOTO_WAIT_LIMIT_MS = 3_000;

/**
 * Resolves once the page's lead photos (the server's `<img fetchpriority="high">`: the carousel's first slide, the
 * first card of the list, the detail photo, i.e. the largest paint) are decoded, or failed, and a frame has been
 * painted with them; at most `limitMs` after it is called. The app's JavaScript waits for this before it is fetched
 * and run (main.tsx), so the photo has the network to itself and its paint does not wait behind hydration: the
 * largest paint is the photo's own transfer (docs/performance.md, "Layout shift and the largest paint").
 */
export function leadPhotosPainted(root: ParentNode, limitMs = LEAD_PHOTO_WAIT_LIMIT_MS): Promise<void> {
  const photos = [...root.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')];
  // decode() settles once the image has loaded and can be painted without further work; a broken one rejects.
  const decoded = Promise.all(photos.map((photo) => photo.decode().catch(() => undefined)));
  const limit = new Promise<void>((resolve) => setTimeout(resolve, limitMs));
  return Promise.race([decoded, limit]).then(afterNextPaint);
}

/** A frame's callbacks run just before it is painted; a task queued from there runs after that paint. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
