import { describe, expect, it } from 'vitest';
import { matchPageRoute, PAGE_ROUTES, pageOf, readPageUrl } from './page-routes.js';

describe('matchPageRoute', () => {
  it.each([
    ['/', 'home', {}],
    ['/PRODUCTS/', 'products', {}],
    ['/productdetails/7', 'productDetails', { id: '7' }],
    ['/ProductDetails/%37//', 'productDetails', { id: '7' }],
    ['/productdetails/a%2Fb', 'productDetails', { id: 'a/b' }],
    ['/productdetails/%E0%A4%A', 'productDetails', { id: '%E0%A4%A' }],
    ['/productdetails/caf%C3%A9', 'productDetails', { id: 'café' }],
    ['/productdetails', 'notFound', { '*': 'productdetails' }],
    ['/productdetails//7', 'notFound', { '*': 'productdetails//7' }],
    ['/a/b%2Fc', 'notFound', { '*': 'a/b/c' }],
  ])('reads %s as the %s page with %j', (pathname, page, params) => {
    expect(matchPageRoute(pathname)).toEqual({ page, params });
  });

  it('has one pattern per page, the not-found one last', () => {
    expect(PAGE_ROUTES.map((route) => route.page)).toEqual(['home', 'products', 'productDetails', 'notFound']);
  });
});

describe('readPageUrl', () => {
  it.each([
    ['/', { kind: 'home' }],
    ['/?utm_source=x', { kind: 'home' }],
    ['/products', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/Products/', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/products?q=leather+bag&sort=priceHighLow', { kind: 'products', search: 'leather bag', category: '', sort: 'priceHighLow', page: 1 }],
    ['/products?sort=cheapest', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/products?category=jewelery&q=gold&sort=nameAZ', { kind: 'products', search: 'gold', category: 'jewelery', sort: 'nameAZ', page: 1 }],
    [
      '/products?category=%3Cscript%3Ealert%28%27category%27%29%3C%2Fscript%3E+100%25+%22kids%22%3F%23',
      { kind: 'products', search: '', category: `<script>alert('category')</script> 100% "kids"?#`, sort: 'none', page: 1 },
    ],
    [
      '/products?category=home%20%26%20garden%2Foutdoor%20%F0%9F%8F%95%EF%B8%8F',
      { kind: 'products', search: '', category: 'home & garden/outdoor 🏕️', sort: 'none', page: 1 },
    ],
    ['/products?category=', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/products?q=gold&page=3', { kind: 'products', search: 'gold', category: '', sort: 'none', page: 3 }],
    ['/products?page=0', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/products?page=last', { kind: 'products', search: '', category: '', sort: 'none', page: 1 }],
    ['/productdetails/7', { kind: 'product', id: 7 }],
    ['/productdetails/007/', { kind: 'product', id: 7 }],
    ['/productdetails/%37', { kind: 'product', id: 7 }],
    ['/productdetails/abc', { kind: 'invalid-id' }],
    ['/productdetails/1.5', { kind: 'invalid-id' }],
    ['/productdetails/%E0%A4%A', { kind: 'invalid-id' }],
    ['/productdetails/' + '9'.repeat(40), { kind: 'invalid-id' }],
    ['/productdetails', { kind: 'not-found' }],
    ['/productdetails/1/reviews', { kind: 'not-found' }],
    ['/productdetails/a%2Fb', { kind: 'invalid-id' }],
    ['//evil.example/products', { kind: 'not-found' }],
    // As React Router reads them: slashes after the path are ignored, and escapes are decoded before matching.
    ['////', { kind: 'home' }],
    ['/%70roducts?q=bag', { kind: 'products', search: 'bag', category: '', sort: 'none', page: 1 }],
    ['/products%2F', { kind: 'not-found' }],
    ['/nope', { kind: 'not-found' }],
  ])('reads %s as %j', (url, route) => {
    expect(readPageUrl(url).route).toEqual(route);
  });

  it('reads the fields the GET form sends unset, without scripts, as not set: the same list, in the site spelling', () => {
    const sent = readPageUrl('/products?q=&category=&sort=none&minPrice=&maxPrice=&minRating=4');
    expect(sent).toEqual(readPageUrl('/products?minRating=4'));
    expect(sent.siteSpelling).toBe(true);
    expect(readPageUrl('/products?q=&category=&sort=none&minPrice=&maxPrice=&minRating=')).toEqual(readPageUrl('/products'));
    expect(readPageUrl('/products?q=mug&category=&sort=nameAZ&minPrice=5&maxPrice=&minRating=').siteSpelling).toBe(true);
    // Only the form's own unset fields: anything else is still another spelling.
    expect(readPageUrl('/products?q=&utm_source=x').siteSpelling).toBe(false);
    expect(readPageUrl('/products?q=&q=mug').siteSpelling).toBe(false);
    expect(readPageUrl('/products?page=').siteSpelling).toBe(false);
  });
});

describe('pageOf', () => {
  it('names the page that shows each route', () => {
    expect(pageOf({ kind: 'home' })).toBe('home');
    expect(pageOf({ kind: 'products', search: '', category: '', sort: 'none', page: 1 })).toBe('products');
    expect(pageOf({ kind: 'product', id: 1 })).toBe('productDetails');
    expect(pageOf({ kind: 'invalid-id' })).toBe('productDetails');
    expect(pageOf({ kind: 'not-found' })).toBe('notFound');
  });
});
