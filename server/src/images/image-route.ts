import { type ImageWidth, parseImageWidth } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import type { CachedRoute } from '../http/cached-route.js';
import type { Failure } from '../outcomes/failure.js';
import { imageAnswer } from './image-answer.js';
import { getProductImage } from './image-operation.js';
import type { ProductImages } from './product-images.js';
import { chooseVariantFormat } from './variant-format.js';

/** What a photo request asks for: the product's photo, resized to `width` or (null) the original. */
export interface PhotoRequest {
  id: number;
  width: ImageWidth | null;
}

/**
 * `/api/products/{id}/image[?w=]`, declared once (http/cached-route.ts) for Express, the response cache and the
 * OpenAPI document (docs/api.md, "Product images"). Mounted after the products slice's routes, so that
 * `/products/category/image` stays a category.
 */
/** No such product, or its photo or the catalogue could not be had (docs/api.md, "Product images"). */
const PHOTO_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.productNotFound,
  unavailable: MESSAGES.catalogueUnavailable,
  'timed-out': MESSAGES.catalogueTimeout,
};

export const IMAGE_ROUTE: CachedRoute<PhotoRequest, ProductImages> = {
  path: '/products/:id/image',
  operation: getProductImage,
  scope: 'api',
  read: ({ params, query }) => {
    // Ids that are not plain digits never reach the upstream, which hangs on them.
    const id = parseProductId(params.id);
    if (id === null) return { error: MESSAGES.invalidProductId };
    const width = parseImageWidth(new URLSearchParams(query));
    return width === undefined ? { error: MESSAGES.invalidImageWidth } : { id, width };
  },
  // Originals and variants by one rule (prepareAnswer): one ETag mechanism, X-Cache and Age on both. A variant's
  // format follows the browser's Accept, so the response cache keeps one per format.
  answer: async ({ id, width }, images, req) =>
    width === null
      ? imageAnswer(await images.original(id), { variesOnAccept: false })
      : imageAnswer(await images.variant(id, width, chooseVariantFormat(req.headers.accept)), { variesOnAccept: true }),
  variesBy: (req) => chooseVariantFormat(req.headers.accept),
  failures: PHOTO_FAILURES,
};
