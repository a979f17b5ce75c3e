import { describe, expect, it } from 'vitest';
import { canonicalPath, isCacheablePageUrl, resolvePage } from './page-route.js';

describe('resolvePage', () => {
  it.each([
    ['/', { kind: 'home' }],
    ['/?utm_source=x', { kind: 'home' }],
    ['/products', { kind: 'products', query: '', sort: 'none' }],
    ['/Products/', { kind: 'products', query: '', sort: 'none' }],
    ['/products?q=leather+bag&sort=priceHighLow', { kind: 'products', query: 'leather bag', sort: 'priceHighLow' }],
    ['/products?sort=cheapest', { kind: 'products', query: '', sort: 'none' }],
    ['/productdetails/7', { kind: 'product', id: 7 }],
    ['/productdetails/007/', { kind: 'product', id: 7 }],
    ['/productdetails/%37', { kind: 'product', id: 7 }],
    ['/productdetails/abc', { kind: 'invalid-id' }],
    ['/productdetails/1.5', { kind: 'invalid-id' }],
    ['/productdetails/%E0%A4%A', { kind: 'invalid-id' }],
    ['/productdetails/' + '9'.repeat(40), { kind: 'invalid-id' }],
    ['/productdetails', { kind: 'not-found' }],
    ['/productdetails/1/reviews', { kind: 'not-found' }],
    ['//evil.example/products', { kind: 'not-found' }],
    ['////', { kind: 'not-found' }],
    ['/nope', { kind: 'not-found' }],
  ])('reads %s as %j', (url, route) => {
    expect(resolvePage(url)).toEqual(route);
  });
});

describe('canonicalPath', () => {
  it('keeps the trimmed search and drops the sort; error pages have none', () => {
    expect(canonicalPath({ kind: 'home' })).toBe('/');
    expect(canonicalPath({ kind: 'products', query: '  leather bag ', sort: 'nameAZ' })).toBe('/products?q=leather+bag');
    expect(canonicalPath({ kind: 'products', query: ' ', sort: 'nameAZ' })).toBe('/products');
    expect(canonicalPath({ kind: 'product', id: 7 })).toBe('/productdetails/7');
    expect(canonicalPath({ kind: 'invalid-id' })).toBeNull();
    expect(canonicalPath({ kind: 'not-found' })).toBeNull();
  });
});

describe('isCacheablePageUrl', () => {
  it.each([
    '/',
    '/products',
    '/products?q=bag',
    '/products?q=leather+bag',
    '/products?sort=nameAZ',
    '/products?q=bag&sort=priceLowHigh',
    '/products?sort=priceLowHigh&q=bag',
    '/productdetails/7',
  ])('keeps %s, a spelling the site writes', (url) => {
    expect(isCacheablePageUrl(url)).toBe(true);
  });

  it.each([
    '/?',
    '/?utm_source=x',
    '/products?',
    '/products/',
    '/PRODUCTS',
    '/products?utm_source=x',
    '/products?q=',
    '/products?q=a%20b',
    '/products?q=bag&q=mug',
    '/products?sort=none',
    '/products?sort=cheapest',
    `/products?q=${'x'.repeat(101)}`,
    '/productdetails/007',
    '/productdetails/7?x=1',
    '/productdetails/abc',
    '/productdetails/7/',
    '/nope',
  ])('renders but does not keep %s', (url) => {
    expect(isCacheablePageUrl(url)).toBe(false);
  });
});
