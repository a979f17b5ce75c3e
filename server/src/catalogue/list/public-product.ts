import type { Product } from '@catalogue/shared/product';
import { productImagePath } from '@catalogue/shared/routes';

/**
 * The product as clients see it: the source's image location is replaced by this server's image route, so
 * browsers never talk to the upstream and the image route alone decides which URL is fetched.
 */
export function toPublicProduct(product: Product): Product {
  return { ...product, image: productImagePath(product.id) };
}
