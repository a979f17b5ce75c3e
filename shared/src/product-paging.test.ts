import { describe, expect, it } from 'vitest';
import {
  MAX_PAGE,
  pageCount,
  pageItems,
  parsePageNumber,
  productsPagePath,
  PRODUCTS_PAGE_SIZE,
  readProductsQuery,
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
    expect(readProductsQuery(new URLSearchParams('q=Gold%20ring&category=jewelery&sort=nameAZ&page=3'))).toEqual({
      search: 'Gold ring',
      category: 'jewelery',
      sort: 'nameAZ',
      page: 3,
    });
    expect(readProductsQuery(new URLSearchParams('sort=cheapest&page=last'))).toEqual({ search: '', category: '', sort: 'none', page: 1 });
  });

  it('writes one spelling for each state, leaving the defaults out, so every link reads back intact', () => {
    expect(productsPagePath({ search: '', category: '', sort: 'none', page: 1 })).toBe('/products');
    const hostile = `home & garden/outdoor 🏕️ 100% "kids"?#`;
    const path = productsPagePath({ search: ' a+b ', category: hostile, sort: 'priceHighLow', page: 7 });
    expect(path).toBe(`/products?q=+a%2Bb+&category=${new URLSearchParams({ c: hostile }).toString().slice(2)}&sort=priceHighLow&page=7`);
    expect(readProductsQuery(new URL(path, 'http://localhost').searchParams)).toEqual({
      search: ' a+b ',
      category: hostile,
      sort: 'priceHighLow',
      page: 7,
    });
  });
});
