import { describe, expect, it } from 'vitest';
import type { Product } from './product.js';
import {
  filterAndSortProducts,
  MAX_PAGE,
  pageCount,
  pageItems,
  parsePageNumber,
  productsPagePath,
  PRODUCTS_PAGE_SIZE,
  parseProductsQuery,
  readProductsQuery,
  isSiteProductsQuery,
  withoutUnsetFormFields,
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
    ['minPrice=-1', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['maxPrice=abc', PRODUCTS_QUERY_ERRORS.price('maxPrice')],
    ['minPrice=', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['maxPrice=1e3', PRODUCTS_QUERY_ERRORS.price('maxPrice')],
    ['minPrice=Infinity', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['minPrice=NaN', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['maxPrice=2000000000', PRODUCTS_QUERY_ERRORS.price('maxPrice')],
    ['minPrice=20&maxPrice=10', PRODUCTS_QUERY_ERRORS.priceRange],
    ['minPrice=1&minPrice=2', PRODUCTS_QUERY_ERRORS.repeated('minPrice')],
    ['minRating=0', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=5', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=3.5', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=4&minRating=4', PRODUCTS_QUERY_ERRORS.repeated('minRating')],
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

  it('reads the price range in dollars, both ends included, and the least rating', () => {
    expect(strict('minPrice=9.99&maxPrice=10&minRating=4')).toEqual({
      search: '',
      category: '',
      sort: 'none',
      page: 1,
      minPrice: 9.99,
      maxPrice: 10,
      minRating: 4,
    });
    expect(strict('minPrice=5&maxPrice=5')).toMatchObject({ minPrice: 5, maxPrice: 5 });
    expect(strict('minPrice=0')).toMatchObject({ minPrice: 0 });
  });

  it('reads what the lenient reading reads wherever the strict one accepts it', () => {
    for (const raw of ['q=%20a%2Bb&category=jewelery&sort=nameAZ&page=4', 'minPrice=1.5&maxPrice=20&minRating=2&q=a']) {
      expect(strict(raw)).toEqual(parseProductsQuery(new URLSearchParams(raw), 'lenient'));
    }
  });
});

describe('readProductsQuery, the filters (the pages)', () => {
  const lenient = (raw: string) => readProductsQuery(new URLSearchParams(raw));

  it('reads no filter from what is not one, and a range given backwards the right way round', () => {
    expect(lenient('minPrice=-1&maxPrice=abc&minRating=7')).toEqual({ search: '', category: '', sort: 'none', page: 1 });
    expect(lenient('minPrice=&maxPrice=&minRating=')).toEqual({ search: '', category: '', sort: 'none', page: 1 });
    expect(lenient('minPrice=50&maxPrice=10')).toMatchObject({ minPrice: 10, maxPrice: 50 });
    expect(lenient('minRating=3&minRating=1')).toMatchObject({ minRating: 3 });
  });

  it('writes the filters in the site spelling, and reads back what it wrote', () => {
    const query = { search: 'mug', category: '', sort: 'none' as const, page: 2, minPrice: 0.5, maxPrice: 20, minRating: 3 as const };
    expect(productsPagePath(query)).toBe('/products?q=mug&minPrice=0.5&maxPrice=20&minRating=3&page=2');
    expect(lenient(productsPagePath(query).split('?')[1]!)).toEqual(query);
    expect(isSiteProductsQuery('q=mug&minPrice=0.5&maxPrice=20&minRating=3&page=2')).toBe(true);
    expect(isSiteProductsQuery('minPrice=0.50')).toBe(false);
    expect(isSiteProductsQuery('minPrice=')).toBe(false);
  });
});

describe('withoutUnsetFormFields', () => {
  it('drops the fields the GET form sends unset, keeping the rest as it is', () => {
    expect(withoutUnsetFormFields('q=&category=&sort=none&minPrice=&maxPrice=&minRating=')).toBe('');
    expect(withoutUnsetFormFields('q=bag&category=&sort=none&minPrice=&maxPrice=20&minRating=4')).toBe('q=bag&maxPrice=20&minRating=4');
    expect(withoutUnsetFormFields('q=a%20b&sort=nameAZ&page=')).toBe('q=a%20b&sort=nameAZ&page=');
    expect(withoutUnsetFormFields('')).toBe('');
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

function product(id: number, title: string, price: number, category = 'misc'): Product {
  return { id, title, price, description: '', category, image: '' };
}

const HOSTILE = `<script>alert('category')</script> 100% "kids"?#`;

const catalogue = [
  product(1, 'Blue Mug', 12, 'kitchen'),
  product(2, 'apple crate', 30),
  product(3, 'Red mug', 5.5, HOSTILE),
  product(4, 'Émile lamp', 30),
  product(5, 'Zebra rug', 99.99, HOSTILE),
];

const ids = (products: Product[]) => products.map((p) => p.id);

describe('filterAndSortProducts', () => {
  it('keeps the prices in the range, both ends included, and the products rated at least the least rating', () => {
    expect(ids(filterAndSortProducts(catalogue, { minPrice: 12, maxPrice: 30 }))).toEqual([1, 2, 4]);
    expect(ids(filterAndSortProducts(catalogue, { maxPrice: 12, sort: 'priceHighLow' }))).toEqual([1, 3]);
    const rated = catalogue.map((item, index) => (index < 3 ? { ...item, rating: { rate: 2 + index * 0.5, count: 1 } } : item));
    // 2, 2.5, 3 and two without a rating, read as the card shows them: 4.
    expect(ids(filterAndSortProducts(rated, { minRating: 3 }))).toEqual([3, 4, 5]);
    expect(ids(filterAndSortProducts(rated, { minRating: 4, search: 'lamp' }))).toEqual([4]);
    expect(ids(filterAndSortProducts(rated, { minRating: 2, minPrice: 13 }))).toEqual([2, 4, 5]);
  });

  it('keeps the catalogue order when there is no search and no sort', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'none' }))).toEqual([1, 2, 3, 4, 5]);
  });

  it('matches a case-insensitive substring of the title', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: 'MUG', sort: 'none' }))).toEqual([1, 3]);
    expect(ids(filterAndSortProducts(catalogue, { search: 'ug', sort: 'none' }))).toEqual([1, 3, 5]);
  });

  it('ignores leading and trailing spaces in the search text', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '  mug ', sort: 'none' }))).toEqual([1, 3]);
  });

  it('returns nothing when no title matches', () => {
    expect(filterAndSortProducts(catalogue, { search: 'sofa', sort: 'nameAZ' })).toEqual([]);
  });

  it('sorts by price ascending, keeping catalogue order for ties', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'priceLowHigh' }))).toEqual([3, 1, 2, 4, 5]);
  });

  it('sorts by price descending, keeping catalogue order for ties', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'priceHighLow' }))).toEqual([5, 2, 4, 1, 3]);
  });

  it('sorts titles by locale order, not by code point', () => {
    // Code-point order would put 'Blue', 'Red', 'Zebra' before 'apple' and 'Émile' last.
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'nameAZ' }))).toEqual([2, 1, 4, 3, 5]);
  });

  it('filters first, then sorts', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: 'mug', sort: 'priceLowHigh' }))).toEqual([3, 1]);
  });

  it('keeps only the exact category when one is given, and everything for an empty one', () => {
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE }))).toEqual([3, 5]);
    expect(ids(filterAndSortProducts(catalogue, { category: 'kitchen' }))).toEqual([1]);
    expect(ids(filterAndSortProducts(catalogue, { category: '' }))).toEqual([1, 2, 3, 4, 5]);
    expect(filterAndSortProducts(catalogue, { category: 'Kitchen' })).toEqual([]);
    expect(filterAndSortProducts(catalogue, { category: 'kitchen ' })).toEqual([]);
  });

  it('filters by category, then by text, then sorts', () => {
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE, search: 'u', sort: 'priceHighLow' }))).toEqual([5, 3]);
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE, search: 'mug', sort: 'nameAZ' }))).toEqual([3]);
    expect(filterAndSortProducts(catalogue, { category: 'misc', search: 'mug' })).toEqual([]);
  });

  it('does not mutate its input', () => {
    const input = [...catalogue];
    filterAndSortProducts(input, { search: '', sort: 'priceHighLow' });
    expect(input).toEqual(catalogue);
  });
});
