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

/** The search text as the rule compares it: the ends' spaces dropped, lower case; '' means every title. */
export function searchNeedle(search: string): string {
  return search.trim().toLocaleLowerCase();
}
