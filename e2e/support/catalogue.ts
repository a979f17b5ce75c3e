import { readFileSync } from 'node:fs';
import type { Product } from '@catalogue/shared/product';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';

/**
 * What the pages should show, worked out here from the data itself (not with the app's shared code, so a bug in
 * that code cannot make the tests agree with it).
 */
export { FIXTURE_PRODUCTS };

export const EMBEDDED_PRODUCTS: readonly Product[] = JSON.parse(
  readFileSync(new URL('../../server/embedded-catalogue/products.json', import.meta.url), 'utf8'),
) as Product[];

export type SortValue = 'none' | 'priceLowHigh' | 'priceHighLow' | 'nameAZ';

export const SORT_LABELS: Record<SortValue, string> = {
  none: 'Sort by...',
  priceLowHigh: 'Price: Low → High',
  priceHighLow: 'Price: High → Low',
  nameAZ: 'Name: A → Z',
};

/**
 * docs/product.md, "Products": the category's products (exact name; '' for all), then a case-insensitive substring
 * of the title, then price ascending/descending or title by localeCompare.
 */
export function expectedTitles(products: readonly Product[], search: string, sort: SortValue, category = ''): string[] {
  const needle = search.toLowerCase();
  const filtered = products.filter(
    (product) => (category === '' || product.category === category) && product.title.toLowerCase().includes(needle),
  );
  const sorted = [...filtered];
  if (sort === 'priceLowHigh') sorted.sort((a, b) => a.price - b.price);
  if (sort === 'priceHighLow') sorted.sort((a, b) => b.price - a.price);
  if (sort === 'nameAZ') sorted.sort((a, b) => a.title.localeCompare(b.title));
  return sorted.map((product) => product.title);
}

/** `$22.30`: a dollar sign, thousands commas, two decimals. */
export function dollars(price: number): string {
  const [whole, cents] = price.toFixed(2).split('.');
  return `$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** The catalogue's categories, each once, in the order the catalogue first lists them. */
export function categoryNames(products: readonly Product[]): string[] {
  return [...new Set(products.map((product) => product.category))];
}

/** `/products?category=…` as a link writes it: the name encoded by URLSearchParams. */
export function categoryPath(name: string): string {
  return `/products?${new URLSearchParams({ category: name }).toString()}`;
}

export function productById(products: readonly Product[], id: number): Product {
  const product = products.find((candidate) => candidate.id === id);
  if (!product) throw new Error(`no product ${id} in the test data`);
  return product;
}
