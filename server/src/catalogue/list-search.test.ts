import { filterAndSortProducts, SORT_OPTIONS } from '@catalogue/shared/sort';
import type { Product } from '@catalogue/shared/product';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { describe, expect, it } from 'vitest';
import { buildListIndex } from './list-index.js';
import { searchList, searchPage } from './list-search.js';

/**
 * Generated products (their own words) mixed with the fixtures (accents, emoji, hostile category names, no rating)
 * and ties: equal prices and equal titles, so the order of ties is tested as well.
 */
const CATALOGUE: Product[] = [
  ...FIXTURE_PRODUCTS,
  ...generateCatalogue(600, 7).map((product, index) => ({
    ...product,
    id: 1000 + index,
    price: index % 5 === 0 ? 10 : product.price,
    title: index % 7 === 0 ? 'Émile lamp' : product.title,
  })),
];

describe('searchList', () => {
  const index = buildListIndex(CATALOGUE);
  const categories = ['', ...new Set(CATALOGUE.map((product) => product.category)), 'no such category'];
  const searches = ['', 'a', '  LAMP ', 'émile', 'ba be', '🏕️', 'zzzz'];

  it('selects the same products in the same order as the page’s own rule, for every sort, category and search', () => {
    for (const { value: sort } of SORT_OPTIONS) {
      for (const category of categories) {
        for (const search of searches) {
          const expected = filterAndSortProducts(CATALOGUE, { category, search, sort }).map((product) => product.id);
          const found = searchList(CATALOGUE, index, { category, search, sort }).map((position) => CATALOGUE[position]!.id);
          expect(found, JSON.stringify({ sort, category, search })).toEqual(expected);
        }
      }
    }
  });

  it('answers one page of public products with the totals', () => {
    const page = searchPage(CATALOGUE, { search: 'a', category: '', sort: 'priceHighLow', page: 2 });
    const all = filterAndSortProducts(CATALOGUE, { search: 'a', sort: 'priceHighLow' });
    expect(page.total).toBe(all.length);
    expect(page.catalogueSize).toBe(CATALOGUE.length);
    expect(page.pageSize).toBe(24);
    expect(page.items).toEqual(all.slice(24, 48).map((product) => ({ ...product, image: `/api/products/${product.id}/image` })));
    expect(searchPage(CATALOGUE, { search: '', category: '', sort: 'none', page: 1000 }).items).toEqual([]);
  });
});
