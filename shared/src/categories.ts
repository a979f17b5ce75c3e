import type { Product } from './product.js';

/**
 * The category names of a catalogue, each once, in the order they first appear: the order the upstream lists
 * its products in, so the filter reads like the catalogue (the Fake Store's own `/products/categories` is
 * alphabetical; docs/api.md, "Differences from the Fake Store API"). Names are compared exactly, as the upstream
 * spells them (case, spaces and all).
 */
export function categoriesOf(products: readonly Pick<Product, 'category'>[]): string[] {
  return [...new Set(products.map((product) => product.category))];
}

/** The products of one category, in catalogue order: an exact match on the name, so an unknown name has none. */
export function productsInCategory<T extends Pick<Product, 'category'>>(products: readonly T[], category: string): T[] {
  return products.filter((product) => product.category === category);
}

/** Whether a list can be narrowed to `category`: some product has it, and '' (every category) always can. */
export function holdsCategory(products: readonly Pick<Product, 'category'>[], category: string): boolean {
  return category === '' || products.some((product) => product.category === category);
}
