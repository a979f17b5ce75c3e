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
  return searchableText(search.trim());
}

/** Half of a surrogate pair with no other half: text no UTF-8 (a URL, SQLite, an answer's JSON) can carry. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A title as the search compares it: lower case, each lone half of a surrogate pair (an upstream's JSON may say
 * "\ud800") read as U+FFFD, as UTF-8 carries it: so a title matches the same needles here and in the catalogue's
 * database, which holds text as UTF-8 (server/src/catalogue/list/catalogue-database.ts).
 */
export function searchableText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').toLocaleLowerCase();
}
