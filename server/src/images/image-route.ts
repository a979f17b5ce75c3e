import { type ImageWidth, parseImageWidth } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { apiRoute } from '../http/api-route.js';

/** What a photo request asks for: the product's photo, resized to `width` or (null) the original. */
export interface PhotoRequest {
  id: number;
  width: ImageWidth | null;
}

/**
 * `/api/products/{id}/image[?w=]`, declared once (http/api-route.ts) for Express, the response cache and the
 * OpenAPI document (docs/api.md, "Product images"). Mounted after the products slice's routes, so that
 * `/products/category/image` stays a category.
 */
export const IMAGE_ROUTE = apiRoute<PhotoRequest>({
  path: '/products/:id/image',
  readsQuery: true,
  read: ({ params, query }) => {
    // Ids that are not plain digits never reach the upstream, which hangs on them.
    const id = parseProductId(params.id);
    if (id === null) return { error: MESSAGES.invalidProductId };
    const width = parseImageWidth(new URLSearchParams(query));
    return width === undefined ? { error: MESSAGES.invalidImageWidth } : { id, width };
  },
});
