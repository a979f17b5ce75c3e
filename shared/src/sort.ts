import { productsInCategory } from './categories.js';
import type { Product } from './product.js';

/** The sort options of the products page, in the order the dropdown lists them. */
export const SORT_OPTIONS = [
  { value: 'none', label: 'Sort by...' },
  { value: 'priceLowHigh', label: 'Price: Low → High' },
  { value: 'priceHighLow', label: 'Price: High → Low' },
  { value: 'nameAZ', label: 'Name: A → Z' },
] as const;

export type SortOption = (typeof SORT_OPTIONS)[number]['value'];

export function isSortOption(value: unknown): value is SortOption {
  return SORT_OPTIONS.some((option) => option.value === value);
}

/** The sort options that reorder the list. */
export type ProductOrder = Exclude<SortOption, 'none'>;

/** What the sorts read of a product: a record holding only these sorts as the product does. */
type Sortable = Pick<Product, 'price' | 'title'>;

/** How each sort compares two products; ties are left to a stable sort, so they keep the catalogue's order. */
export const COMPARATORS: Record<ProductOrder, (a: Sortable, b: Sortable) => number> = {
  priceLowHigh: (a, b) => a.price - b.price,
  priceHighLow: (a, b) => b.price - a.price,
  nameAZ: (a, b) => a.title.localeCompare(b.title),
};

/**
 * Which products the list shows, in which order (docs/product.md, "Products"); a page of them is a ProductsQuery
 * (shared/src/product-paging.ts).
 */
export interface ProductsSelection {
  /** Text the titles must contain, ignoring case and the ends' spaces ('' or blank: every title), as typed. */
  search: string;
  /** A category's exact name (shared/src/categories.ts); '' for every category. */
  category: string;
  sort: SortOption;
}

/** The search text as the rule compares it: the ends' spaces dropped, lower case; '' means every title. */
export function searchNeedle(search: string): string {
  return search.trim().toLocaleLowerCase();
}

/**
 * The products list's one rule, for the browser and the server's render alike: filter by category, then by text
 * (a case-insensitive substring of the title), then sort. Array.prototype.sort is stable, so ties keep the
 * catalogue's order. Never mutates its input.
 */
export function filterAndSortProducts<T extends Product>(
  products: readonly T[],
  { category = '', search = '', sort = 'none' }: Partial<ProductsSelection>,
): T[] {
  const inCategory = category === '' ? products : productsInCategory(products, category);
  const needle = searchNeedle(search);
  const filtered = needle ? inCategory.filter((product) => product.title.toLocaleLowerCase().includes(needle)) : [...inCategory];
  return sort === 'none' ? filtered : filtered.sort(COMPARATORS[sort]);
}
