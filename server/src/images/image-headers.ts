/**
 * The headers every photo answer carries, here because two slices name them: the images slice sends them, and
 * the OpenAPI slice's document describes them (image-operation.ts).
 */

/** Images are named by product and only change with it, so browsers and CDNs may keep them for a day. */
export const IMAGE_MAX_AGE_SECONDS = 86_400;
export const IMAGE_CACHE_CONTROL = `public, max-age=${IMAGE_MAX_AGE_SECONDS}`;
/** An image opened on its own must not run or load anything (an SVG may hold scripts): sandboxed. */
export const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
