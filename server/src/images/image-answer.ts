import { imageWidthOf } from '@catalogue/shared/image-widths';
import { parseProductId } from '@catalogue/shared/product-id';
import { API_PATHS } from '@catalogue/shared/routes';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import type { Answer } from '../http/answer.js';
import type { CacheableRoute } from '../http/response-cache.js';
import type { ImageAnswer } from './image-cache.js';
import { chooseVariantFormat } from './variant-format.js';

/** Images are named by product and only change with it, so browsers and CDNs may keep them for a day. */
const IMAGE_MAX_AGE_SECONDS = 86_400;
export const IMAGE_CACHE_CONTROL = `public, max-age=${IMAGE_MAX_AGE_SECONDS}`;
/** An image opened on its own must not run anything (an SVG may hold scripts): no sources, sandboxed. */
export const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * A resized variant as the response cache and the Express route both send it (prepareAnswer): the image's own
 * bytes (already compressed), its ETag, the long lifetime and the sandbox, and `Vary: Accept`, since the format
 * follows the browser's `Accept`.
 */
export function imageVariantAnswer({ image, cacheStatus, ageSeconds }: ImageAnswer): Answer {
  return {
    body: { identity: image.body, etag: image.etag },
    contentType: image.contentType,
    vary: 'Accept',
    cacheStatus,
    ageSeconds,
    freshForSeconds: IMAGE_MAX_AGE_SECONDS,
    cacheControl: IMAGE_CACHE_CONTROL,
    contentSecurityPolicy: IMAGE_CSP,
  };
}

/** `/api/products/<digits>/image?w=<width>`, exactly: any other spelling is the Express route's. */
const VARIANT_URL = new RegExp(`^${API_PATHS.products}/([0-9]+)/image\\?w=([0-9]+)$`);

/**
 * `GET /api/products/{id}/image?w={width}` for the response cache in front of Express: a variant already made
 * for this product, width and format (by `Accept`) is answered there; products-router.ts answers the rest.
 */
export function cacheableImageVariantRoute(catalogue: CachedCatalogue): CacheableRoute {
  return {
    pattern: `${API_PATHS.products}/:id/image`,
    rateLimited: true,
    match(url) {
      const [, rawId, rawWidth] = VARIANT_URL.exec(url) ?? [];
      const id = parseProductId(rawId);
      return id === null || imageWidthOf(rawWidth) === undefined ? undefined : `${id} ${rawWidth}`;
    },
    peek(key, req) {
      const [id = '', rawWidth] = key.split(' ');
      const width = imageWidthOf(rawWidth);
      const answer = width && catalogue.peekImageVariant(Number(id), width, chooseVariantFormat(req.headers.accept));
      return answer && imageVariantAnswer(answer);
    },
  };
}
