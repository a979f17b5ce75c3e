import type { Product } from './product.js';
import type { ProductsQuery } from './product-paging.js';

/** How many other products of its category a product's page shows below it (docs/product.md, "Product detail"). */
export const RELATED_PRODUCTS = 4;

/**
 * What a product's related products are read from: the first page of its category's list in the catalogue's own
 * order, as `/products?category=…` shows it (and `/api/products/search?category=…` answers it). The server reads it
 * from the catalogue's list, the browser from that search when it does not hold the whole list.
 */
export function relatedProductsQuery(category: string): ProductsQuery {
  return { search: '', category, sort: 'none', page: 1 };
}

/**
 * The related products of `product` among `products` (its category's first page, or the whole list): the others of
 * its category, in the order given, the first RELATED_PRODUCTS of them. None when it is its category's only product.
 */
export function relatedProducts<T extends Pick<Product, 'id' | 'category'>>(
  products: readonly T[],
  product: Pick<Product, 'id' | 'category'>,
): T[] {
  const related: T[] = [];
  for (const other of products) {
    if (related.length === RELATED_PRODUCTS) break;
    if (other.category === product.category && other.id !== product.id) related.push(other);
  }
  return related;
}
