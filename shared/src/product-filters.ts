import type { Product } from './product.js';
import { searchableText, searchNeedle } from './sort.js';

/**
 * The products list's price and rating filters (docs/product.md, "Filters"): a price range in dollars, both ends
 * included, and a least rating. Each is absent when not set, so a list without filters is exactly the list as
 * it was before there were any.
 */
export interface ProductsFilters {
  /** Dollars, 0 or more; the products priced at it or above. */
  minPrice?: number | undefined;
  /** Dollars, 0 or more and not below minPrice; the products priced at it or below. */
  maxPrice?: number | undefined;
  /** The products rated at least this (1 to 4, the "4★ & up" of the filter). */
  minRating?: MinRating | undefined;
}

/** The rating filter's thresholds, in the order the filter lists them: "4★ & up" first. */
export const MIN_RATINGS = [4, 3, 2, 1] as const;

export type MinRating = (typeof MIN_RATINGS)[number];

/**
 * The rate a product card shows when the upstream sends no rating (docs/product.md, "Products"); the rating
 * filter reads the same rate, so a card shown under "4★ & up" always shows four stars or more.
 */
export const CARD_DEFAULT_RATE = 4;

/** The rate the list's cards show and its rating filter reads. */
export function shownRate(product: Pick<Product, 'rating'>): number {
  return product.rating?.rate ?? CARD_DEFAULT_RATE;
}

/** Whether a product passes the price range. */
export function inPriceRange(price: number, { minPrice, maxPrice }: ProductsFilters): boolean {
  return (minPrice === undefined || price >= minPrice) && (maxPrice === undefined || price <= maxPrice);
}

/** Whether a product passes the least rating. */
export function ratedAtLeast(product: Pick<Product, 'rating'>, minRating: MinRating | undefined): boolean {
  return minRating === undefined || shownRate(product) >= minRating;
}

/** Whether any filter is set: with none, the list's texts, order and behaviour are exactly as without filters. */
export function hasFilters({ minPrice, maxPrice, minRating }: ProductsFilters): boolean {
  return minPrice !== undefined || maxPrice !== undefined || minRating !== undefined;
}

/** The largest price a filter reads, a bound that keeps the URL's number a plain number of dollars. */
export const MAX_FILTER_PRICE = 1_000_000_000;

/** A price as a filter reads it: digits, an optional decimal part, at most MAX_FILTER_PRICE; otherwise null. */
export function parseFilterPrice(raw: string | null): number | null {
  if (raw === null || !/^[0-9]{1,10}(\.[0-9]{1,6})?$/.test(raw)) return null;
  const price = Number(raw);
  return price <= MAX_FILTER_PRICE ? price : null;
}

/** A least rating as the filter reads it: one digit from 1 to 4; otherwise null. */
export function parseMinRating(raw: string | null): MinRating | null {
  return raw !== null && /^[1-4]$/.test(raw) ? (Number(raw) as MinRating) : null;
}

/** The counts beside a list (`facets` of `/api/products/search`), each leaving out its own kind of filter. */
export interface ProductFacets {
  /** Every category of the catalogue, in its order, with how many products the search and the other filters leave in it. */
  categories: { name: string; count: number }[];
  /** Each least rating, as MIN_RATINGS lists them, with how many products the search, category and price leave at it. */
  ratings: { min: MinRating; count: number }[];
  /** The lowest and highest price among what the search, category and rating leave; null when they leave none. */
  price: { min: number; max: number } | null;
}

/** What the counts are taken for: the search text, the category and the filters (not the sort or the page). */
export type FacetsQuery = { search: string; category: string } & ProductsFilters;

/**
 * The counts' one rule, as Shopify's and Algolia's facet counts are taken: a category's count is taken under the
 * search and the price and rating filters, whichever category is chosen; a rating's under the search, the category
 * and the price; the price range under the search, the category and the rating. `categories` is the catalogue's
 * (categoriesOf), so a category the filters empty is still listed, with 0.
 */
export function productFacets(products: readonly Product[], query: FacetsQuery, categories: readonly string[]): ProductFacets {
  const needle = searchNeedle(query.search);
  const found = needle === '' ? products : products.filter((product) => searchableText(product.title).includes(needle));
  const inCategory = (product: Product) => query.category === '' || product.category === query.category;
  const categoryCounts = new Map(categories.map((name) => [name, 0]));
  const ratingCounts = new Map<MinRating, number>(MIN_RATINGS.map((min) => [min, 0]));
  let low = Infinity;
  let high = -Infinity;
  for (const product of found) {
    const priced = inPriceRange(product.price, query);
    const rated = ratedAtLeast(product, query.minRating);
    if (priced && rated) categoryCounts.set(product.category, (categoryCounts.get(product.category) ?? 0) + 1);
    if (!inCategory(product)) continue;
    if (priced) for (const min of MIN_RATINGS) if (ratedAtLeast(product, min)) ratingCounts.set(min, ratingCounts.get(min)! + 1);
    if (rated) {
      low = Math.min(low, product.price);
      high = Math.max(high, product.price);
    }
  }
  return {
    categories: categories.map((name) => ({ name, count: categoryCounts.get(name)! })),
    ratings: MIN_RATINGS.map((min) => ({ min, count: ratingCounts.get(min)! })),
    price: low <= high ? { min: low, max: high } : null,
  };
}
