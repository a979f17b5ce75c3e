/**
 * A part of a page loaded on demand, in its own chunk (the home carousel, with Swiper). The server preloads the chunk
 * with the page (`modulePath` names it in Vite's build manifest) and the browser loads it before hydrating the page, so
 * the page hydrates in one pass.
 */
export interface LazyChunk<T = unknown> {
  /** The module's path in Vite's build manifest, from the client's root. */
  readonly modulePath: string;
  readonly load: () => Promise<T>;
}
