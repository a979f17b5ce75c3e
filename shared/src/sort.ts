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

const COMPARATORS: Record<Exclude<SortOption, 'none'>, (a: Product, b: Product) => number> = {
  priceLowHigh: (a, b) => a.price - b.price,
  priceHighLow: (a, b) => b.price - a.price,
  nameAZ: (a, b) => a.title.localeCompare(b.title),
};

/**
 * Filter first (case-insensitive substring of the title), then sort. Array.prototype.sort is stable, so
 * ties keep the catalogue's order. Never mutates its input.
 */
export function filterAndSortProducts<T extends Product>(products: readonly T[], search: string, sort: SortOption): T[] {
  const needle = search.trim().toLocaleLowerCase();
  const filtered = needle ? products.filter((product) => product.title.toLocaleLowerCase().includes(needle)) : [...products];
  return sort === 'none' ? filtered : filtered.sort(COMPARATORS[sort]);
}
