import type { Product } from '@catalogue/shared/product';
import { COMPARATORS, type ProductOrder } from '@catalogue/shared/sort';

/**
 * What a search over the whole list needs besides the products, computed once per fill: each title lower-cased
 * as the rule compares it, and the list's order under each sort (positions into the list). Sorting 50,000 titles
 * with localeCompare takes hundreds of milliseconds, so a large list's index is built in the fill's worker
 * (list-fill-worker.ts), never on the event loop; a small one (the embedded catalogue) is built where it is needed.
 */
export interface ListIndex {
  lowerTitles: string[];
  orders: Record<ProductOrder, Uint32Array>;
}

const ORDERS = Object.keys(COMPARATORS) as ProductOrder[];

export function buildListIndex(products: readonly Product[]): ListIndex {
  const positions = Array.from(products, (_, position) => position);
  const orders = {} as Record<ProductOrder, Uint32Array>;
  for (const order of ORDERS) {
    const compare = COMPARATORS[order];
    // Array.prototype.sort is stable: ties keep the catalogue's order, as filterAndSortProducts's do.
    orders[order] = Uint32Array.from([...positions].sort((a, b) => compare(products[a]!, products[b]!)));
  }
  return { lowerTitles: products.map((product) => product.title.toLocaleLowerCase()), orders };
}
