import { describe, expect, it } from 'vitest';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { canonicalPath, readPage } from './page-route.js';

describe('canonicalPath', () => {
  it('keeps the category and the trimmed search and drops the sort; error pages have none', () => {
    expect(canonicalPath({ kind: 'home' })).toBe('/');
    expect(canonicalPath({ kind: 'products', search: '  leather bag ', category: '', sort: 'nameAZ', page: 1 })).toBe(
      '/products?q=leather+bag',
    );
    expect(canonicalPath({ kind: 'products', search: ' ', category: '', sort: 'nameAZ', page: 1 })).toBe('/products');
    expect(canonicalPath({ kind: 'products', search: ' gold', category: 'jewelery', sort: 'priceLowHigh', page: 1 })).toBe(
      '/products?category=jewelery&q=gold',
    );
    expect(canonicalPath({ kind: 'products', search: ' gold', category: 'jewelery', sort: 'nameAZ', page: 4 })).toBe(
      '/products?category=jewelery&q=gold&page=4',
    );
    expect(canonicalPath({ kind: 'products', search: '', category: 'home & garden/outdoor 🏕️', sort: 'none', page: 1 })).toBe(
      '/products?category=home+%26+garden%2Foutdoor+%F0%9F%8F%95%EF%B8%8F',
    );
    expect(canonicalPath({ kind: 'product', id: 7 })).toBe('/productdetails/7');
    expect(canonicalPath({ kind: 'invalid-id' })).toBeNull();
    expect(canonicalPath({ kind: 'not-found' })).toBeNull();
  });
});

describe('readPage', () => {
  it.each([
    '/',
    '/products',
    '/products?q=bag',
    '/products?q=leather+bag',
    '/products?sort=nameAZ',
    '/products?q=bag&sort=priceLowHigh',
    '/products?sort=priceLowHigh&q=bag',
    '/products?category=jewelery',
    '/products?category=men%27s+clothing&q=bag&sort=nameAZ',
    '/products?q=bag&category=men%27s+clothing',
    '/products?category=%3Cscript%3Ealert%28%27category%27%29%3C%2Fscript%3E+100%25+%22kids%22%3F%23',
    '/products?page=2',
    '/products?q=bag&category=jewelery&sort=nameAZ&page=2084',
    '/productdetails/7',
  ])('keeps %s, a spelling the site writes', (url) => {
    expect(readPage(url).cachedAs).toBeDefined();
  });

  it.each([
    ['/', '/'],
    ['/productdetails/7', '/productdetails/7'],
    ['/products?sort=priceLowHigh&q=bag', '/products?q=bag&sort=priceLowHigh'],
    ['/products?q=bag&sort=priceLowHigh', '/products?q=bag&sort=priceLowHigh'],
    ['/products?category=men%27s+clothing&q=bag&sort=nameAZ', '/products?q=bag&category=men%27s+clothing&sort=nameAZ'],
    // The GET form's fields left unset, as a browser without scripts sends them, mean "not set".
    ['/products?q=', '/products'],
    ['/products?sort=none', '/products'],
    ['/products?category=', '/products'],
    ['/products?q=&category=&sort=none&minPrice=&maxPrice=&minRating=4', '/products?minRating=4'],
    ['/products?q=bag&category=&sort=priceLowHigh&minPrice=5&maxPrice=&minRating=', '/products?q=bag&sort=priceLowHigh&minPrice=5'],
  ])('keeps %s as the page of its route, %s, whatever the order of its parameters', (url, cachedAs) => {
    expect(readPage(url)).toEqual({ url, route: readPageUrl(url).route, cachedAs });
  });

  it.each([
    '/?',
    '/?utm_source=x',
    '/products?',
    '/products/',
    '/PRODUCTS',
    '/products?utm_source=x',
    '/products?q=a%20b',
    '/products?q=bag&q=mug',
    '/products?category=a&category=b',
    "/products?category=men's+clothing",
    '/products?category=home%20%26%20garden',
    '/products?sort=cheapest',
    '/products?page=1',
    '/products?page=02',
    '/products?page=0',
    '/products?page=two',
    '/products?page=2&page=3',
    `/products?q=${'x'.repeat(101)}`,
    '/productdetails/007',
    '/productdetails/7?x=1',
    '/productdetails/abc',
    '/productdetails/7/',
    '/productdetails/%37',
    '//',
    '/%70roducts',
    '/nope',
  ])('renders but does not keep %s', (url) => {
    expect(readPage(url)).toEqual({ url, route: readPageUrl(url).route, cachedAs: undefined });
  });
});
