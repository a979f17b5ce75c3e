import { imageWidthOf } from '@catalogue/shared/image-widths';
import { parseProductId } from '@catalogue/shared/product-id';
import { API_PATHS } from '@catalogue/shared/routes';
import type { Answer } from '../http/answer.js';
import { IMAGE_CACHE_CONTROL, IMAGE_CSP, IMAGE_MAX_AGE_SECONDS } from './image-headers.js';
import type { CacheableRoute } from '../http/response-cache.js';
import type { ImageAnswer } from './image-cache.js';
import type { ProductImages } from './product-images.js';
import { chooseVariantFormat } from './variant-format.js';

/**
 * A photo, original or resized, as the response cache and the Express route both send it (prepareAnswer, the
 * one validator mechanism): the image's own bytes (already compressed), its strong ETag, X-Cache and Age as the
 * JSON has them, the long lifetime and the sandbox; a variant adds `Vary: Accept`, since its format follows the
 * browser's `Accept`.
 */
export function imageAnswer({ image, cacheStatus, ageSeconds }: ImageAnswer, { variesOnAccept }: { variesOnAccept: boolean }): Answer {
  return {
    body: { identity: image.body, etag: image.etag },
    contentType: image.contentType,
    ...(variesOnAccept && { vary: 'Accept' }),
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
 * `GET /api/products/{id}/image?w={width}` for the response cache in front of Express: a fresh variant already
 * made for this product, width and format (by `Accept`) is answered there; images-router.ts answers the rest.
 */
export function cacheableImageVariantRoute(images: ProductImages): CacheableRoute {
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
      const answer = width && images.peekVariant(Number(id), width, chooseVariantFormat(req.headers.accept));
      return answer && imageAnswer(answer, { variesOnAccept: true });
    },
  };
}
