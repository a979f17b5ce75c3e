import { categoriesOf } from '@catalogue/shared/categories';
import { filterAndSortProducts, SORT_OPTIONS } from '@catalogue/shared/sort';
import type { Product } from '@catalogue/shared/product';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { describe, expect, it } from 'vitest';
import { buildCompactList, compactListBuilder } from './compact-list.js';
import { answerQuestion, selectPositions } from './list-questions.js';
import { toPublicProduct } from './public-product.js';

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
const list = buildCompactList(CATALOGUE);
const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;

describe('the compact list', () => {
  it('is the public list’s JSON, byte for byte, with the catalogue’s categories', () => {
    expect(Buffer.from(list.json).toString('utf8')).toBe(JSON.stringify(CATALOGUE.map(toPublicProduct)));
    expect(list.categories).toEqual(categoriesOf(CATALOGUE));
    expect(Buffer.from(buildCompactList([]).json).toString('utf8')).toBe('[]');
  });

  it('grows its JSON in shared memory as products are added: the same bytes, in plain memory or shared', () => {
    const builder = compactListBuilder();
    for (const product of CATALOGUE) builder.add(product);
    const shared = builder.build('shared');
    expect(shared.json.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(shared.json)).toEqual(Buffer.from(list.json));
    expect(list.json.buffer).toBeInstanceOf(ArrayBuffer);
    expect(list.json.byteLength).toBe(list.json.buffer.byteLength);
    expect([...shared.starts]).toEqual([...list.starts]);
  });

  it('builds once: the builder lets go of what it gathered, and says so if asked again', () => {
    const builder = compactListBuilder();
    builder.add(CATALOGUE[0]!);
    builder.build();
    expect(() => builder.build()).toThrow('this compact list was built already');
    expect(() => builder.add(CATALOGUE[1]!)).toThrow('this compact list was built already');
  });

  it('selects the same products in the same order as the page’s own rule, for every sort, category and search', () => {
    const categories = ['', ...list.categories, 'no such category'];
    const searches = ['', 'a', '  LAMP ', 'émile', 'ba be', '🏕️', 'zzzz'];
    for (const { value: sort } of SORT_OPTIONS) {
      for (const category of categories) {
        for (const search of searches) {
          const expected = filterAndSortProducts(CATALOGUE, { category, search, sort }).map((product) => product.id);
          const found = selectPositions(list, { category, search, sort }).map((position) => CATALOGUE[position]!.id);
          expect(found, JSON.stringify({ sort, category, search })).toEqual(expected);
        }
      }
    }
  });

  it('finds a search only within one title, never across two titles that follow each other', () => {
    const titled = (titles: string[]) =>
      buildCompactList(titles.map((title, index) => ({ ...FIXTURE_PRODUCTS[0]!, id: index + 1, title })));
    const pair = titled(['Blue ab', 'cd lamp', 'ab', '', 'abcd', 'Ça ça']);
    const found = (search: string) => selectPositions(pair, { search }).map((position) => position + 1);
    expect(found('bc')).toEqual([5]);
    expect(found('ab')).toEqual([1, 3, 5]);
    expect(found('abcd')).toEqual([5]);
    expect(found('lampab')).toEqual([]);
    expect(found('ça')).toEqual([6]);
  });

  it('answers one page of a search as the JSON of the page object, public products only', () => {
    const query = { search: 'a', category: '', sort: 'priceHighLow', page: 2 } as const;
    const all = filterAndSortProducts(CATALOGUE, query);
    const expected = {
      items: all.slice(24, 48).map(toPublicProduct),
      total: all.length,
      page: 2,
      pageSize: 24,
      catalogueSize: CATALOGUE.length,
    };
    expect(Buffer.from(answerQuestion(list, 'searchPage', query)).toString('utf8')).toBe(JSON.stringify(expected));
    expect(json(answerQuestion(list, 'searchPage', { ...query, page: 1000 }))).toMatchObject({ items: [], total: all.length });
    const content = answerQuestion(list, 'productsPage', query);
    expect(content.page).toEqual(expected);
    expect(content.products).toBeUndefined();
    expect(content.holdsCategory).toBe(true);
    expect(answerQuestion(list, 'productsPage', { ...query, category: 'no such category' }).holdsCategory).toBe(false);
  });

  it('answers the Fake Store’s list options: a category’s products, by id either way, the first `limit`', () => {
    const [category] = list.categories;
    const byId = (direction: 1 | -1) => [...CATALOGUE].sort((a, b) => direction * (a.id - b.id));
    const ids = (bytes: Uint8Array) => (json(bytes) as Product[]).map((product) => product.id);
    expect(ids(answerQuestion(list, 'selection', { category: null, sort: 'desc', limit: 5 }))).toEqual(
      byId(-1)
        .slice(0, 5)
        .map((p) => p.id),
    );
    expect(ids(answerQuestion(list, 'selection', { category: null, sort: 'asc', limit: null }))).toEqual(byId(1).map((p) => p.id));
    expect(ids(answerQuestion(list, 'selection', { category: category!, sort: null, limit: 3 }))).toEqual(
      CATALOGUE.filter((product) => product.category === category)
        .slice(0, 3)
        .map((p) => p.id),
    );
    expect(json(answerQuestion(list, 'selection', { category: 'no such category', sort: null, limit: null }))).toEqual([]);
  });

  it('gives back the source’s own image locations for the copy replicas share', () => {
    expect(json(answerQuestion(list, 'copyJson', null))).toEqual(JSON.parse(JSON.stringify(CATALOGUE)));
  });

  it('makes the sitemap where the list is', () => {
    const xml = Buffer.from(answerQuestion(list, 'sitemap', { origin: 'https://shop.test', lastModified: 0, page: null })!).toString(
      'utf8',
    );
    expect(xml).toContain(`<loc>https://shop.test/productdetails/${CATALOGUE.at(-1)!.id}</loc>`);
    expect(answerQuestion(list, 'sitemap', { origin: 'https://shop.test', lastModified: 0, page: 2 })).toBeNull();
  });
});
