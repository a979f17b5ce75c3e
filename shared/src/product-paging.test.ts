import { describe, expect, it } from 'vitest';
import {
  MAX_PAGE,
  pageCount,
  pageItems,
  parsePageNumber,
  productsPagePath,
  PRODUCTS_PAGE_SIZE,
  parseProductsQuery,
  readProductsQuery,
  isSiteProductsQuery,
  MAX_SEARCH_CHARS,
  PRODUCTS_QUERY_ERRORS,
  codePointLength,
} from './product-paging.js';

describe('paging the products list', () => {
  it('counts at least one page, and a page for every started PRODUCTS_PAGE_SIZE', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(1)).toBe(1);
    expect(pageCount(PRODUCTS_PAGE_SIZE)).toBe(1);
    expect(pageCount(PRODUCTS_PAGE_SIZE + 1)).toBe(2);
    expect(pageCount(50_000)).toBe(Math.ceil(50_000 / PRODUCTS_PAGE_SIZE));
  });

  it('takes one page of items, the last one short, past the last none', () => {
    const items = Array.from({ length: 50 }, (_, index) => index);
    expect(pageItems(items, 1)).toEqual(items.slice(0, 24));
    expect(pageItems(items, 3)).toEqual([48, 49]);
    expect(pageItems(items, 4)).toEqual([]);
  });

  it.each([
    ['1', 1],
    ['42', 42],
    [String(MAX_PAGE), MAX_PAGE],
    [null, null],
    ['', null],
    ['0', null],
    ['01', null],
    ['-1', null],
    ['1.5', null],
    ['1e3', null],
    [' 2', null],
    [String(MAX_PAGE + 1), null],
    ['99999999999999999999', null],
  ])('reads the page number %j as %j', (raw, page) => {
    expect(parsePageNumber(raw)).toBe(page);
  });

  it('reads the list state from the URL, an odd page or sort meaning the default', () => {
    expect(parseProductsQuery(new URLSearchParams('q=Gold%20ring&category=jewelery&sort=nameAZ&page=3'), 'lenient')).toEqual({
      search: 'Gold ring',
      category: 'jewelery',
      sort: 'nameAZ',
      page: 3,
    });
    expect(parseProductsQuery(new URLSearchParams('sort=cheapest&page=last'), 'lenient')).toEqual({
      search: '',
      category: '',
      sort: 'none',
      page: 1,
    });
  });

  it.each(['q=Gold%20ring&category=jewelery&sort=nameAZ&page=3', 'sort=cheapest&page=last', 'q=a&q=b&page=0', ''])(
    'reads %j alike through readProductsQuery, the lenient reading the pages bundle alone',
    (raw) => {
      const params = new URLSearchParams(raw);
      expect(readProductsQuery(params)).toEqual(parseProductsQuery(params, 'lenient'));
    },
  );

  it('writes one spelling for each state, leaving the defaults out, so every link reads back intact', () => {
    expect(productsPagePath({ search: '', category: '', sort: 'none', page: 1 })).toBe('/products');
    const hostile = `home & garden/outdoor 🏕️ 100% "kids"?#`;
    const path = productsPagePath({ search: ' a+b ', category: hostile, sort: 'priceHighLow', page: 7 });
    expect(path).toBe(`/products?q=+a%2Bb+&category=${new URLSearchParams({ c: hostile }).toString().slice(2)}&sort=priceHighLow&page=7`);
    expect(parseProductsQuery(new URL(path, 'http://localhost').searchParams, 'lenient')).toEqual({
      search: ' a+b ',
      category: hostile,
      sort: 'priceHighLow',
      page: 7,
    });
  });
});

describe('parseProductsQuery, strict (the API)', () => {
  const strict = (raw: string) => parseProductsQuery(new URLSearchParams(raw), 'strict');

  it('reads every parameter, each optional, and ignores the others', () => {
    expect(strict('')).toEqual({ search: '', category: '', sort: 'none', page: 1 });
    expect(strict('q=Gold+ring&category=men%27s%20clothing&sort=priceLowHigh&page=12&utm_source=x')).toEqual({
      search: 'Gold ring',
      category: "men's clothing",
      sort: 'priceLowHigh',
      page: 12,
    });
  });

  it.each([
    ['q=a&q=b', PRODUCTS_QUERY_ERRORS.repeated('q')],
    ['category=a&category=b', PRODUCTS_QUERY_ERRORS.repeated('category')],
    ['sort=nameAZ&sort=nameAZ', PRODUCTS_QUERY_ERRORS.repeated('sort')],
    ['page=1&page=2', PRODUCTS_QUERY_ERRORS.repeated('page')],
    [`q=${'a'.repeat(MAX_SEARCH_CHARS + 1)}`, PRODUCTS_QUERY_ERRORS.search],
    ['sort=asc', PRODUCTS_QUERY_ERRORS.sort],
    ['sort=', PRODUCTS_QUERY_ERRORS.sort],
    ['page=0', PRODUCTS_QUERY_ERRORS.page],
    ['page=', PRODUCTS_QUERY_ERRORS.page],
    ['page=01', PRODUCTS_QUERY_ERRORS.page],
    ['page=2.5', PRODUCTS_QUERY_ERRORS.page],
    ['page=1e3', PRODUCTS_QUERY_ERRORS.page],
    ['page=99999999', PRODUCTS_QUERY_ERRORS.page],
  ])('refuses %s with a message naming the parameter', (query, error) => {
    expect(strict(query)).toEqual({ error });
  });

  it('counts q in code points, as the OpenAPI document (JSON Schema) does: 150 emoji are 150 characters', () => {
    const emoji = (n: number) => encodeURIComponent('😀'.repeat(n));
    expect(strict(`q=${emoji(150)}`)).toMatchObject({ search: '😀'.repeat(150) });
    expect(strict(`q=${emoji(MAX_SEARCH_CHARS)}`)).toMatchObject({ search: '😀'.repeat(MAX_SEARCH_CHARS) });
    expect(strict(`q=${emoji(MAX_SEARCH_CHARS + 1)}`)).toEqual({ error: PRODUCTS_QUERY_ERRORS.search });
    // 199 letters and one emoji: 201 UTF-16 units, 200 characters.
    expect(strict(`q=${'a'.repeat(MAX_SEARCH_CHARS - 1)}${emoji(1)}`)).toMatchObject({ search: `${'a'.repeat(MAX_SEARCH_CHARS - 1)}😀` });
    expect(strict(`q=${'a'.repeat(MAX_SEARCH_CHARS)}${emoji(1)}`)).toEqual({ error: PRODUCTS_QUERY_ERRORS.search });
  });

  it.each([
    ['', 0],
    ['abc', 3],
    ['😀', 1],
    ['é', 1],
    ['e\u0301', 2],
    ['\ud800', 1],
    ['\ud800\udc00\udc00', 2],
  ])('counts %j as %i code points', (text, length) => {
    expect(codePointLength(JSON.parse(`"${text}"`) as string)).toBe(length);
  });

  it('says which values are allowed', () => {
    expect(PRODUCTS_QUERY_ERRORS.sort).toBe('sort must be one of none, priceLowHigh, priceHighLow, nameAZ');
    expect(PRODUCTS_QUERY_ERRORS.page).toBe('page must be a whole number from 1 to 1000000');
  });

  it('reads what the lenient reading reads wherever the strict one accepts it', () => {
    const raw = 'q=%20a%2Bb&category=jewelery&sort=nameAZ&page=4';
    expect(strict(raw)).toEqual(parseProductsQuery(new URLSearchParams(raw), 'lenient'));
  });
});

describe('isSiteProductsQuery', () => {
  it.each([
    '',
    'q=gold',
    'category=jewelery&q=gold',
    'q=gold&category=jewelery&sort=nameAZ&page=2',
    'page=3&sort=priceLowHigh',
    'q=+a%2Bb+',
  ])('takes %j, as the site writes it', (raw) => {
    expect(isSiteProductsQuery(raw)).toBe(true);
  });

  it.each(['q=', 'category=', 'sort=none', 'sort=cheapest', 'page=1', 'page=01', 'q=a&q=b', 'utm_source=x', 'q=a%20b', 'q=gold&'])(
    'refuses %j, a spelling the site never writes',
    (raw) => {
      expect(isSiteProductsQuery(raw)).toBe(false);
    },
  );
});
