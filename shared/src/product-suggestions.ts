import type { Product } from './product.js';
import { filterAndSortProducts } from './product-paging.js';
import { searchableText, searchNeedle } from './sort.js';

/** How many products the bar's search suggests as the visitor types (docs/product.md, "Search in the bar"). */
export const SUGGESTED_PRODUCTS = 6;

/** What `/api/products/suggestions` answers: the first products whose titles hold the text, and the categories whose names do. */
export interface ProductSuggestions {
  /** Up to SUGGESTED_PRODUCTS, in the catalogue's order. */
  products: Product[];
  /** Every category whose name holds the text, in the catalogue's order. */
  categories: string[];
}

/**
 * The suggestions' one rule: the products list's search (a case-insensitive substring of the title, the ends'
 * spaces dropped), its first SUGGESTED_PRODUCTS in the catalogue's order, and the categories whose names hold the
 * same text. A blank text suggests nothing.
 */
export function productSuggestions(products: readonly Product[], categories: readonly string[], search: string): ProductSuggestions {
  if (searchNeedle(search) === '') return { products: [], categories: [] };
  return {
    products: filterAndSortProducts(products, { search }).slice(0, SUGGESTED_PRODUCTS),
    categories: categoriesMatching(categories, search),
  };
}

/** The categories whose names hold the search text, compared as titles are; none for a blank text. */
export function categoriesMatching(categories: readonly string[], search: string): string[] {
  const needle = searchNeedle(search);
  return needle === '' ? [] : categories.filter((name) => searchableText(name).includes(needle));
}
