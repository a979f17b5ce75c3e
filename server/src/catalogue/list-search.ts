import type { Product } from '@catalogue/shared/product';
import { PRODUCTS_PAGE_SIZE, type ProductSearchPage, type ProductsQuery } from '@catalogue/shared/product-paging';
import { type ProductListView, searchNeedle } from '@catalogue/shared/sort';
import type { ListIndex } from './list-index.js';
import { listIndexOf } from './prepared-list.js';
import { toPublicProduct } from './public-product.js';

/**
 * The positions of the products a view selects, in its order: the same products in the same order as
 * filterAndSortProducts (shared/src/sort.ts), since filtering a stably sorted list keeps the order that sorting
 * the filtered list would give.
 */
export function searchList(
  products: readonly Product[],
  index: ListIndex,
  { category = '', search = '', sort = 'none' }: ProductListView,
): number[] {
  const needle = searchNeedle(search);
  const order = sort === 'none' ? undefined : index.orders[sort];
  const matches: number[] = [];
  for (let step = 0; step < products.length; step++) {
    const position = order === undefined ? step : order[step]!;
    if (category !== '' && products[position]!.category !== category) continue;
    if (needle !== '' && !index.lowerTitles[position]!.includes(needle)) continue;
    matches.push(position);
  }
  return matches;
}

/**
 * One page of what a query selects from a list, public products only: what `/api/products/search` answers and
 * what the server renders `/products` with. A page past the last has no items (the total says how many there are).
 */
export function searchPage(products: readonly Product[], { search, category, sort, page }: ProductsQuery): ProductSearchPage {
  const matches = searchList(products, listIndexOf(products), { search, category, sort });
  const items = matches
    .slice((page - 1) * PRODUCTS_PAGE_SIZE, page * PRODUCTS_PAGE_SIZE)
    .map((position) => toPublicProduct(products[position]!));
  return { items, total: matches.length, page, pageSize: PRODUCTS_PAGE_SIZE, catalogueSize: products.length };
}
