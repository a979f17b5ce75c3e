import { describe, expect, it } from 'vitest';
import type { Product } from './product.js';
import { CARD_DEFAULT_RATE, hasFilters, parseFilterPrice, parseMinRating, productFacets, shownRate } from './product-filters.js';

const product = (id: number, category: string, price: number, rate?: number): Product => ({
  id,
  title: `Item ${id} ${category}`,
  price,
  description: '',
  category,
  image: '',
  ...(rate !== undefined && { rating: { rate, count: 1 } }),
});

const CATALOGUE = [
  product(1, 'mugs', 5, 4.5),
  product(2, 'mugs', 15, 2),
  product(3, 'lamps', 30, 3.5),
  product(4, 'lamps', 80),
  product(5, 'rugs', 200, 1),
];
const CATEGORIES = ['mugs', 'lamps', 'rugs', 'empty'];

describe('the price and rating filters', () => {
  it('reads a missing rating as the rate the card shows', () => {
    expect(shownRate({})).toBe(CARD_DEFAULT_RATE);
    expect(shownRate({ rating: { rate: 0, count: 0 } })).toBe(0);
  });

  it.each([
    ['0', 0],
    ['12', 12],
    ['9.99', 9.99],
    ['007.50', 7.5],
    ['1000000000', 1_000_000_000],
  ])('reads the price %j as %d dollars', (raw, price) => {
    expect(parseFilterPrice(raw)).toBe(price);
  });

  it.each([null, '', '-1', '+1', '1e3', 'abc', '1.', '.5', ' 1', 'Infinity', '1000000001'])('reads no price from %j', (raw) => {
    expect(parseFilterPrice(raw)).toBeNull();
  });

  it('reads a least rating from 1 to 4 only', () => {
    expect(['1', '2', '3', '4'].map(parseMinRating)).toEqual([1, 2, 3, 4]);
    expect([null, '', '0', '5', '3.5', '04', 'four'].map(parseMinRating)).toEqual([null, null, null, null, null, null, null]);
  });

  it('says whether any filter is set', () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ minPrice: 0 })).toBe(true);
    expect(hasFilters({ minRating: 1 })).toBe(true);
  });
});

describe('productFacets', () => {
  it('counts each category under the other filters, whichever category is chosen, and lists empty ones', () => {
    const facets = productFacets(CATALOGUE, { search: '', category: 'lamps', minPrice: 10, minRating: 2 }, CATEGORIES);
    expect(facets.categories).toEqual([
      { name: 'mugs', count: 1 },
      { name: 'lamps', count: 2 },
      { name: 'rugs', count: 0 },
      { name: 'empty', count: 0 },
    ]);
  });

  it('counts each least rating under the search, category and price, leaving out the rating', () => {
    const facets = productFacets(CATALOGUE, { search: '', category: '', maxPrice: 100, minRating: 4 }, CATEGORIES);
    // Rates 4.5, 2, 3.5 and 4 (none sent): the rug is over the price.
    expect(facets.ratings).toEqual([
      { min: 4, count: 2 },
      { min: 3, count: 3 },
      { min: 2, count: 4 },
      { min: 1, count: 4 },
    ]);
  });

  it('takes the price range under the search, category and rating, leaving out the price', () => {
    expect(productFacets(CATALOGUE, { search: '', category: '', minPrice: 100, minRating: 3 }, CATEGORIES).price).toEqual({
      min: 5,
      max: 80,
    });
    expect(productFacets(CATALOGUE, { search: 'item 2', category: '' }, CATEGORIES).price).toEqual({ min: 15, max: 15 });
    expect(productFacets(CATALOGUE, { search: 'none such', category: '' }, CATEGORIES).price).toBeNull();
    expect(productFacets(CATALOGUE, { search: '', category: 'empty' }, CATEGORIES)).toMatchObject({
      price: null,
      ratings: [0, 0, 0, 0].map((count, index) => ({ min: 4 - index, count })),
    });
  });
});
