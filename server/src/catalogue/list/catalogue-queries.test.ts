import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { seededRandom } from '@catalogue/testing/seeded-random';
import { categoriesOf } from '@catalogue/shared/categories';
import type { Product } from '@catalogue/shared/product';
import { filterAndSortProducts } from '@catalogue/shared/product-paging';
import { MIN_RATINGS, productFacets, type ProductsFilters } from '@catalogue/shared/product-filters';
import { productSuggestions, SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import { SORT_OPTIONS } from '@catalogue/shared/sort';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogueWriter } from './catalogue-database.js';
import { catalogueQueries, type CatalogueQueries, filterConditions, ORDER_BY, pageSql } from './catalogue-queries.js';

const folder = mkdtempSync(join(tmpdir(), 'catalogue-queries-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Written and opened as a fill writes and the server opens a list. */
function filled(products: readonly Product[], name: string): CatalogueQueries {
  const file = join(folder, `${name}.sqlite`);
  const writer = catalogueWriter(file);
  for (const product of products) writer.add(product);
  return catalogueQueries(file, writer.finish());
}

/** Words that collide on purpose: accents, case, ligatures, scripts, quotes, FTS5's own syntax, spaces. */
const WORDS = [
  'Straße',
  'STRASSE',
  'strasse',
  'Éclair',
  'eclair',
  'ÉCLAIR',
  'İstanbul',
  'ǅemal',
  'ﬁne',
  'fine',
  '日本語',
  '日本',
  'Ωmega',
  'ωmega',
  'naïve',
  'NAIVE',
  '😀 smile',
  'a"b',
  "o'clock",
  'x*y',
  'NEAR',
  'AND',
  'or',
  '  spaced  ',
  'Z',
  'a',
  'ab',
  'Ab',
];

/**
 * A messy catalogue: titles from colliding words (duplicates, titles that differ only by case or accent), prices
 * that repeat, a few categories with odd names, in a random order.
 */
function messyCatalogue(count: number, seed: number): Product[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const categories = ['jewelery', "men's clothing", 'Électronique', '  spaced  ', '日本'];
  return generateCatalogue(count, seed).map((product, index) => ({
    ...product,
    id: index + 1,
    title: Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)).join(random() < 0.2 ? '' : ' '),
    price: pick([0.5, 1, 9.99, 9.99, 22.3, 100, 1e6]),
    category: pick(categories),
    // Rates on the thresholds, between them, and missing (the card's default, 4, is then read).
    ...(random() < 0.15 ? { rating: undefined } : { rating: { rate: pick([0, 0.9, 1, 1.5, 2, 2.9, 3, 3.9, 4, 4.5, 5]), count: 1 } }),
  }));
}

/** Price ranges and least ratings: on the catalogue's prices, between them, open at either end, empty. */
const FILTERS: ProductsFilters[] = [
  {},
  { minPrice: 9.99 },
  { maxPrice: 9.99 },
  { minPrice: 1, maxPrice: 22.3 },
  { minPrice: 2, maxPrice: 3 },
  { minPrice: 0, maxPrice: 1e6 },
  ...MIN_RATINGS.map((minRating) => ({ minRating })),
  { minRating: 4, maxPrice: 100 },
  { minRating: 3, minPrice: 9.99, maxPrice: 9.99 },
];

/**
 * Needles of every length, from the titles themselves and from outside them; cut at characters, not UTF-16 units:
 * half a surrogate pair cannot reach the server (a URL's `q` is decoded as UTF-8, and a browser sends whole
 * characters), and SQLite's text, which is UTF-8, has no halves either.
 */
function needlesOf(products: readonly Product[], seed: number): string[] {
  const random = seededRandom(seed);
  const fromTitles = products.slice(0, 40).flatMap((product) => {
    const characters = [...product.title];
    const at = Math.floor(random() * characters.length);
    return [1, 2, 3, 4, 7].map((length) => characters.slice(at, at + length).join(''));
  });
  return [
    '',
    ' ',
    'zzz-none',
    '"',
    '""',
    'a"b',
    'x*y',
    'near',
    'AND',
    'é',
    'E',
    'ss',
    'ß',
    'ﬁ',
    'i̇',
    '日本',
    ' a ',
    ...WORDS,
    ...fromTitles,
  ];
}

describe('the catalogue in SQLite answers exactly what filterAndSortProducts does', () => {
  for (const seed of [1, 2, 3]) {
    it(`over a messy catalogue (seed ${seed}): every category, every sort, every needle, the total and each page`, () => {
      const products = messyCatalogue(300, seed);
      const queries = filled(products, `messy-${seed}`);
      const categories = ['', ...categoriesOf(products), 'no such category', 'JEWELERY'];
      for (const category of categories) {
        for (const { value: sort } of SORT_OPTIONS) {
          for (const search of needlesOf(products, seed)) {
            const query = { search, category, sort };
            const expected = filterAndSortProducts(products, query).map(({ id }) => id);
            const whole = queries.page(query, 0, products.length);
            const context = JSON.stringify(query);
            expect(
              whole.items.map((json) => (JSON.parse(json) as Product).id),
              context,
            ).toEqual(expected);
            expect(whole.total, context).toBe(expected.length);
            // A page further in is the same slice of that order.
            expect(
              queries.page(query, 7, 5).items.map((json) => (JSON.parse(json) as Product).id),
              context,
            ).toEqual(expected.slice(7, 12));
          }
        }
      }
    });
  }

  it('searches every needle the document accepts, drawn from the whole of Unicode with controls and NUL, as the rule does', () => {
    // Titles as messy as an upstream's: NUL, controls, a half surrogate pair (JSON can say "\ud800"), combining marks.
    const random = seededRandom(7);
    const anyCodePoint = () => {
      const point = Math.floor(random() * 0x110000);
      return point >= 0xd800 && point <= 0xdfff ? '\ufffd' : String.fromCodePoint(point);
    };
    const junk = [
      ...['\0', 'a\0b', 'ab\0a', '\u0001', '\u001f', '\u007f', '\ud800', '\udfff x', 'e\u0301', '\u00a0', '\t', '\n'],
      ...Array.from({ length: 20 }, () => `${anyCodePoint()}a${anyCodePoint()}`),
    ];
    const products = messyCatalogue(200, 7).map((product) => ({
      ...product,
      title: random() < 0.5 ? `${product.title}${junk[Math.floor(random() * junk.length)]!}${product.title}` : product.title,
    }));
    const queries = filled(products, 'whole-unicode');
    // Any code point (a URL's `q` is decoded as UTF-8, so half a surrogate pair arrives as U+FFFD), mixed with the
    // titles' own characters so that needles also match.
    const character = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('\0', '\u0001', '\ufffd', ' ', 'a', 'b', 'ß', '"', '*'),
      fc.constantFrom(...[...products.map(({ title }) => title).join('')].filter((c) => !/[\uD800-\uDFFF]/.test(c))),
    );
    const needle = fc.array(character, { maxLength: 6 }).map((characters) => characters.join(''));
    fc.assert(
      fc.property(needle, fc.constantFrom(...SORT_OPTIONS.map(({ value }) => value)), (search, sort) => {
        const query = { search, category: '', sort };
        const expected = filterAndSortProducts(products, query).map(({ id }) => id);
        const whole = queries.page(query, 0, products.length);
        expect(whole.items.map((json) => (JSON.parse(json) as Product).id)).toEqual(expected);
        expect(whole.total).toBe(expected.length);
      }),
      { numRuns: 1_000 },
    );
  });

  for (const seed of [4, 5]) {
    it(`over a messy catalogue (seed ${seed}): price and rating filters with every category and needle, and the counts`, () => {
      const products = messyCatalogue(300, seed);
      const queries = filled(products, `filtered-${seed}`);
      const catalogueCategories = categoriesOf(products);
      const needles = needlesOf(products, seed).filter((_, index) => index % 3 === 0);
      for (const category of ['', ...catalogueCategories, 'no such category']) {
        for (const filters of FILTERS) {
          for (const search of needles) {
            const sort = SORT_OPTIONS[(search.length + category.length) % SORT_OPTIONS.length]!.value;
            const query = { search, category, sort, ...filters };
            const context = JSON.stringify(query);
            const expected = filterAndSortProducts(products, query).map(({ id }) => id);
            const whole = queries.page(query, 0, products.length);
            expect(
              whole.items.map((json) => (JSON.parse(json) as Product).id),
              context,
            ).toEqual(expected);
            expect(whole.total, context).toBe(expected.length);
            expect(queries.facets(query), context).toEqual(productFacets(products, query, catalogueCategories));
          }
        }
      }
    });
  }

  it('suggests what productSuggestions does, for every needle', () => {
    const products = messyCatalogue(300, 6);
    const queries = filled(products, 'suggested');
    for (const search of needlesOf(products, 6)) {
      const expected = productSuggestions(products, categoriesOf(products), search).products.map(({ id }) => id);
      const suggested = queries.suggested(search, SUGGESTED_PRODUCTS).map((json) => (JSON.parse(json) as Product).id);
      expect(suggested, JSON.stringify(search)).toEqual(expected);
    }
  });

  it('suggests past the first 2,000 products as productSuggestions does: a rare needle gathered there, a common one found before', () => {
    // The suggestions walk the first SUGGESTIONS_WALKED (2,000) products, then gather the rest through the trigram index.
    const products = generateCatalogue(2_600, 11).map((product, index) =>
      index % 500 === 7 || index === 2_300 ? { ...product, title: `${product.title} Rare Ωmega ﬁne` } : product,
    );
    const queries = filled(products, 'suggested-far');
    const far = products.slice(2_000).map(({ title }) => [...title.toLowerCase()]);
    for (const search of [
      'ωmega',
      'rare ω',
      'are',
      'ﬁne',
      ' 2599',
      '2599',
      'ing',
      'a b',
      far[0]!.slice(3, 9).join(''),
      far[450]!.slice(-7).join(''),
    ]) {
      const expected = productSuggestions(products, categoriesOf(products), search).products.map(({ id }) => id);
      const suggested = queries.suggested(search, SUGGESTED_PRODUCTS).map((json) => (JSON.parse(json) as Product).id);
      expect(suggested, JSON.stringify(search)).toEqual(expected);
    }
  });

  it('lists the Fake Store selections by id, ties in catalogue order, and keeps the source image for the shared copy', () => {
    const products = messyCatalogue(50, 9).map((product, index) => ({
      ...product,
      id: 100 - (index % 10),
      image: `https://img.test/${index}.jpg`,
    }));
    const queries = filled(products, 'selections');
    const ids = (jsons: string[]) => jsons.map((json) => (JSON.parse(json) as Product).id);
    const byId = (direction: 1 | -1) => [...products].sort((a, b) => direction * (a.id - b.id)).map(({ id }) => id);
    expect(ids(queries.listed({ category: '', sort: 'asc', limit: null }))).toEqual(byId(1));
    expect(ids(queries.listed({ category: '', sort: 'desc', limit: 3 }))).toEqual(byId(-1).slice(0, 3));
    const category = products[0]!.category;
    expect(ids(queries.listed({ category, sort: null, limit: null }))).toEqual(
      products.filter((p) => p.category === category).map(({ id }) => id),
    );
    expect(queries.listed({ category: 'unknown', sort: null, limit: null })).toEqual([]);
    expect(queries.ids(0, products.length)).toEqual(products.map(({ id }) => id));
    expect(queries.ids(10, 3)).toEqual(products.slice(10, 13).map(({ id }) => id));
    expect([...queries.sourceJson()].map((json) => JSON.parse(json) as Product)).toEqual(products);
  });
});

describe("readiness reads what every search needs: the products and the counts' columns", () => {
  const DAMAGES = {
    whole: null,
    'columns gone': 'DELETE FROM facet_columns',
    'prices cut short': 'UPDATE facet_columns SET prices = substr(prices, 1, 8)',
    'places not bytes': "UPDATE facet_columns SET places = 'text'",
  };
  for (const [name, damage] of Object.entries(DAMAGES)) {
    it(`${name}: ${damage === null ? 'answers, and so do its searches' : 'does not answer, as its searches fail'}`, () => {
      const file = join(folder, `readiness-${name}.sqlite`);
      const writer = catalogueWriter(file);
      for (const product of messyCatalogue(60, 12)) writer.add(product);
      const shape = writer.finish();
      if (damage !== null) {
        const db = new DatabaseSync(file);
        db.exec(damage);
        db.close();
      }
      const queries = catalogueQueries(file, shape);
      const search = () => queries.page({ search: 'a', category: '', sort: 'none', minRating: 1 }, 0, 10);
      try {
        expect(queries.answers()).toBe(damage === null);
        if (damage === null) expect(search().total).toBeGreaterThan(0);
        else expect(search).toThrow(/counts' columns/);
      } finally {
        queries.close();
      }
    });
  }
});

describe('the plans of a walk', () => {
  it('walks a price order from the start of its price range, and any other order along its own index, neither sorting', () => {
    const file = join(folder, 'plans.sqlite');
    const writer = catalogueWriter(file);
    for (const product of generateCatalogue(3_000, 13)) writer.add(product);
    writer.finish();
    const db = new DatabaseSync(file, { readOnly: true });
    const planOf = (sort: keyof typeof ORDER_BY, filters: ProductsFilters): string => {
      const { sql, params } = filterConditions(filters, sort);
      const explained = db.prepare(`EXPLAIN QUERY PLAN ${pageSql(`WHERE ${sql.join(' AND ')}`, ORDER_BY[sort].walk)}`);
      return explained
        .all(...params, 24, 0)
        .map(({ detail }) => String(detail))
        .join('; ');
    };
    try {
      const plans = {
        cheapest: planOf('priceLowHigh', { minPrice: 50, maxPrice: 60, minRating: 3 }),
        dearest: planOf('priceHighLow', { minPrice: 50 }),
        byName: planOf('nameAZ', { minPrice: 50, maxPrice: 60, minRating: 3 }),
        inOrder: planOf('none', { maxPrice: 60 }),
      };
      expect(plans.cheapest).toMatch(/^SEARCH products USING (COVERING )?INDEX by_price \(price>\? AND price<\?\)$/);
      expect(plans.dearest).toMatch(/^SEARCH products USING (COVERING )?INDEX by_price_desc \(price>\?\)$/);
      expect(plans.byName).toMatch(/^SCAN products USING (COVERING )?INDEX by_name$/);
      expect(plans.inOrder).toMatch(/^SCAN products$/);
    } finally {
      db.close();
    }
  });
});
