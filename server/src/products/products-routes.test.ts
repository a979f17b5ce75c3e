import { MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import { categoriesOf } from '@catalogue/shared/categories';
import { productFacets } from '@catalogue/shared/product-filters';
import { productSuggestions, type ProductSuggestions, SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import {
  filterAndSortProducts,
  parseProductsQuery,
  PRODUCTS_PAGE_SIZE,
  PRODUCTS_QUERY_ERRORS,
  type ProductSearchPage,
} from '@catalogue/shared/product-paging';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import type { PathMode } from '@catalogue/testing/upstream-double';
import { MALFORMED_ESCAPE } from '../http/errors.js';
import { LIST_OPTIONS_ERRORS } from './list-options.js';
import { createDerivedBodyCache } from '../catalogue/caches/derived-body-cache.js';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';
import { MISSING_CATEGORY_NAME } from './products-operations.js';
import { PRODUCTS_ROUTES } from './products-routes.js';
import type { Answer } from '../http/answer.js';
import type { IncomingMessage } from 'node:http';
import { bytesOf } from '../testing/body-bytes.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

async function start(options: Parameters<typeof startTestSite>[0] = {}) {
  site = await startTestSite(options);
  return site;
}

const HOME_AND_GARDEN = FIXTURE_PRODUCTS[18]!.category;
const SCRIPT_CATEGORY = FIXTURE_PRODUCTS[19]!.category;
/** The fixture's category names in the order they first appear (docs/api.md, "Routes"). */
const FIXTURE_CATEGORIES = ["men's clothing", 'jewelery', "women's clothing", 'electronics', HOME_AND_GARDEN, SCRIPT_CATEGORY];

function ids(response: { body: unknown }): number[] {
  return (response.body as Product[]).map((product) => product.id);
}

function categoryPath(name: string, query = ''): string {
  return `/api/products/category/${encodeURIComponent(name)}${query}`;
}

describe('GET /api/products?limit&sort', () => {
  it('keeps the first N products, in upstream order, with images rewritten', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products?limit=3').expect(200);
    expect(response.body).toEqual(
      FIXTURE_PRODUCTS.slice(0, 3).map((product) => ({ ...product, image: `/api/products/${product.id}/image` })),
    );
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('sorts by id, not by upstream order, then keeps the first N', async () => {
    // The upstream lists its products out of id order.
    const shuffled = [FIXTURE_PRODUCTS[4]!, FIXTURE_PRODUCTS[0]!, FIXTURE_PRODUCTS[19]!, FIXTURE_PRODUCTS[2]!, FIXTURE_PRODUCTS[10]!];
    const { server } = await start({ products: shuffled });
    expect(ids(await request(server).get('/api/products').expect(200))).toEqual([5, 1, 20, 3, 11]);
    expect(ids(await request(server).get('/api/products?sort=asc').expect(200))).toEqual([1, 3, 5, 11, 20]);
    expect(ids(await request(server).get('/api/products?sort=desc').expect(200))).toEqual([20, 11, 5, 3, 1]);
    expect(ids(await request(server).get('/api/products?sort=desc&limit=2').expect(200))).toEqual([20, 11]);
    expect(ids(await request(server).get('/api/products?limit=2&sort=asc').expect(200))).toEqual([1, 3]);
  });

  it('answers the whole list, as the list itself, for a limit at or past its length', async () => {
    const { server } = await start();
    const list = await request(server).get('/api/products').expect(200);
    for (const limit of [20, 21, 10_000]) {
      const response = await request(server).get(`/api/products?limit=${limit}`).expect(200);
      expect(ids(response)).toEqual(FIXTURE_PRODUCTS.map((product) => product.id));
      expect(response.headers.etag).toBe(list.headers.etag);
    }
  });

  it('ignores unknown parameters', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products?limit=2&page=3&q=shirt&sort.by=price').expect(200);
    expect(ids(response)).toEqual([1, 2]);
  });
});

describe('GET /api/products/categories', () => {
  it('answers each category name once, in the order the catalogue first lists it, hostile names intact', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products/categories').expect(200);
    expect(response.body).toEqual(FIXTURE_CATEGORIES);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers [] for an empty catalogue', async () => {
    const { server } = await start({ products: [] });
    await request(server).get('/api/products/categories').expect(200, []);
  });
});

describe('GET /api/products/category/{name}', () => {
  it('answers the products of that exact category, in catalogue order, a missing rating still missing', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products/category/jewelery').expect(200);
    expect(ids(response)).toEqual([5, 6, 7, 8]);
    expect((response.body as Product[])[0]).not.toHaveProperty('rating');
    expect((response.body as Product[])[0]).toEqual({ ...FIXTURE_PRODUCTS[4], image: '/api/products/5/image' });
    expect(ids(await request(server).get(categoryPath("men's clothing")).expect(200))).toEqual([1, 2, 3, 4]);
  });

  it('decodes the name: an encoded slash, an ampersand, an emoji, markup, quotes, % ? and #', async () => {
    const { server } = await start();
    expect(ids(await request(server).get(categoryPath(HOME_AND_GARDEN)).expect(200))).toEqual([19]);
    expect(ids(await request(server).get(categoryPath(SCRIPT_CATEGORY)).expect(200))).toEqual([20]);
  });

  it('takes limit and sort by the same rules as the list', async () => {
    const { server, upstream } = await start();
    expect(ids(await request(server).get(categoryPath("women's clothing", '?sort=desc')).expect(200))).toEqual([18, 17, 16, 15, 9]);
    expect(ids(await request(server).get(categoryPath("women's clothing", '?sort=desc&limit=2')).expect(200))).toEqual([18, 17]);
    expect(ids(await request(server).get(categoryPath("women's clothing", '?limit=99')).expect(200))).toEqual([9, 15, 16, 17, 18]);
    await request(server).get(categoryPath('jewelery', '?limit=0')).expect(400, { error: LIST_OPTIONS_ERRORS.limit });
    await request(server).get(categoryPath('nope', '?sort=up')).expect(400, { error: LIST_OPTIONS_ERRORS.sort });
    expect(upstream.requestedPaths()).toEqual(['/products']);
  });

  it.each([
    ['an unknown name', 'garden'],
    ['another case', 'JEWELERY'],
    ['a trailing space', 'jewelery '],
    ['part of a name', 'home & garden'],
    ['the name unescaped by one level too many', encodeURIComponent(HOME_AND_GARDEN)],
    ['NUL', '\u0000'],
    ['dot-dot', '..'],
    ['markup', '<script>alert(1)</script>'],
    ['an emoji', '🏕️'],
    ['a name of 1,900 characters', 'x'.repeat(1_900)],
    ['image', 'image'],
    ['categories', 'categories'],
    ['__proto__', '__proto__'],
  ])('answers 200 [] for %s, as the Fake Store does', async (_case, name) => {
    const { server, upstream } = await start();
    const response = await request(server).get(categoryPath(name)).expect(200, []);
    expect(response.headers['x-cache']).toBe('MISS');
    expect(upstream.requestedPaths()).toEqual(['/products']);
  });

  it('gives every unknown name one and the same empty body', async () => {
    const { server } = await start();
    const tags = new Set<string>();
    for (const name of ['a', 'b', 'x'.repeat(500)])
      tags.add(String((await request(server).get(categoryPath(name, '?sort=desc')).expect(200)).headers.etag));
    expect(tags.size).toBe(1);
  });

  it('answers a category named "image" or "categories" as a category, never as a product id', async () => {
    const products = [
      { ...FIXTURE_PRODUCTS[0]!, category: 'image' },
      { ...FIXTURE_PRODUCTS[1]!, category: 'categories' },
      FIXTURE_PRODUCTS[2]!,
    ];
    const { server, upstream } = await start({ products });
    expect(ids(await request(server).get('/api/products/category/image').expect(200))).toEqual([1]);
    expect(ids(await request(server).get('/api/products/category/categories').expect(200))).toEqual([2]);
    expect(upstream.requestedPaths()).toEqual(['/products']);
  });

  it.each(['/api/products/category/', '/api/products/category', '/API/Products/Category/'])(
    'answers %s, which names no category, with a 400 saying so',
    async (path) => {
      const { server, upstream } = await start();
      const response = await request(server).get(path).expect(400, { error: MISSING_CATEGORY_NAME });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(upstream.requestCount()).toBe(0);
    },
  );

  it('answers a name it cannot percent-decode with a 400 saying so, without asking the upstream', async () => {
    const { server, upstream } = await start();
    for (const name of ['%E0%A4%A', '%zz', 'a%', '%ED%A0%80', '%FF']) {
      const response = await request(server).get(`/api/products/category/${name}`).expect(400, { error: MALFORMED_ESCAPE });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(upstream.requestCount()).toBe(0);
  });

  it('refuses a URL over the API limit with 414, and takes one just under it', async () => {
    const { server } = await start();
    const prefix = '/api/products/category/';
    await request(server)
      .get(`${prefix}${'x'.repeat(MAX_API_URL_LENGTH - prefix.length)}`)
      .expect(200, []);
    await request(server)
      .get(`${prefix}${'x'.repeat(MAX_API_URL_LENGTH - prefix.length + 1)}`)
      .expect(414);
  });
});

describe('the views of the list', () => {
  const VIEW_PATHS = [
    '/api/products?limit=3',
    '/api/products?sort=desc',
    '/api/products/categories',
    '/api/products/category/jewelery?limit=2',
  ];

  it.each(VIEW_PATHS)('%s carries the list entry’s caching headers and its own ETag, gzip, br, 304 and HEAD', async (path) => {
    const { server, clock, upstream } = await start();
    const list = await request(server).get('/api/products').expect(200);
    expect(list.headers['x-cache']).toBe('MISS');
    clock.advanceSeconds(7);

    const view = await request(server).get(path).set('Accept-Encoding', 'br').expect(200);
    expect(view.headers['x-cache']).toBe('HIT');
    expect(view.headers.age).toBe('7');
    expect(view.headers['cache-control']).toBe('public, max-age=293, stale-while-revalidate=300, stale-if-error=86400');
    expect(view.headers['content-encoding']).toBe('br');
    expect(view.headers.vary).toBe('Accept-Encoding');
    expect(view.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(view.headers.etag).not.toBe(list.headers.etag);
    const gzip = await request(server).get(path).set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body).toEqual(view.body);

    await request(server)
      .get(path)
      .set('If-None-Match', view.headers.etag as string)
      .expect(304);
    const head = await request(server).head(path).set('Accept-Encoding', 'br').expect(200);
    expect(head.headers['content-length']).toBe(view.headers['content-length']);
    expect(head.headers.etag).toBe(view.headers.etag);
    // One upstream request for the list, and none for any view of it.
    expect(upstream.requestedPaths()).toEqual(['/products']);
  });

  it('serves a view stale while the list refreshes, then the refreshed list’s view', async () => {
    const { server, clock, upstream, catalogue } = await start();
    expect(ids(await request(server).get('/api/products/category/jewelery').expect(200))).toEqual([5, 6, 7, 8]);
    upstream.setProducts(FIXTURE_PRODUCTS.slice(0, 6));
    clock.advanceSeconds(301);
    const stale = await request(server).get('/api/products/category/jewelery').expect(200);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(ids(stale)).toEqual([5, 6, 7, 8]);
    await catalogue.settled();
    const fresh = await request(server).get('/api/products/category/jewelery').expect(200);
    expect(fresh.headers['x-cache']).toBe('HIT');
    expect(ids(fresh)).toEqual([5, 6]);
    expect((await request(server).get('/api/products/categories').expect(200)).body).toEqual(["men's clothing", 'jewelery']);
  });

  it('prepares each selection once per list fill: the same bytes answer every request until the list refills', async () => {
    const { catalogue, clock, upstream } = await start();
    const parts = { catalogue, bodies: createDerivedBodyCache(1024 * 1024) };
    const req = {} as IncomingMessage;
    const answer = async (selection: { category: string; sort: 'desc' | null; limit: number }) =>
      (await PRODUCTS_ROUTES.category.answer(selection, parts, req)) as Answer;
    const selection = { category: 'jewelery', sort: 'desc', limit: 3 } as const;
    const first = await answer(selection);
    expect((await answer(selection)).body).toBe(first.body);
    // Every unknown name shares one body; a limit past the category's size is no limit.
    expect((await answer({ ...selection, category: 'a' })).body).toBe((await answer({ ...selection, category: 'b' })).body);
    const all = await answer({ ...selection, sort: null, limit: 4 });
    expect((await answer({ ...selection, sort: null, limit: 400 })).body).toBe(all.body);
    // Fresh as the list is, to the millisecond: what the response cache keeps it by.
    const list = await catalogue.withList((entry) => Promise.resolve(entry));
    expect(first.freshness).toEqual({ storedAt: list.storedAt, freshUntil: list.freshUntil });

    upstream.setProducts(FIXTURE_PRODUCTS.slice(0, 7));
    clock.advanceSeconds(301);
    await catalogue.withList(() => Promise.resolve());
    await catalogue.settled();
    const refilled = await answer(selection);
    expect(refilled.body).not.toBe(first.body);
    expect(JSON.parse(bytesOf(refilled.body.identity).toString('utf8'))).toMatchObject([{ id: 7 }, { id: 6 }, { id: 5 }]);
  });

  it.each(
    ['/api/products/categories', '/api/products/category/jewelery', '/api/products?limit=3'].flatMap((path) =>
      (['refuse', 'status500', 'badJson', 'hang'] satisfies (PathMode | 'refuse')[]).map((mode) => [path, mode] as const),
    ),
  )('answers %s, with nothing cached and the upstream failing (%s), exactly as /api/products does', async (path, mode) => {
    // Room for the list's worker thread to start cold on a busy machine: a failure must not arrive as a timeout.
    const { server, upstream } = await start({ config: { UPSTREAM_TIMEOUT_MS: mode === 'hang' ? '50' : '2000' } });
    await upstream.setMode(mode);
    const view = await request(server).get(path);
    const list = await request(server).get('/api/products');
    expect([view.status, view.body, view.headers['cache-control']]).toEqual([list.status, list.body, 'no-store']);
    expect(view.status).toBe(mode === 'hang' ? 504 : 502);
    expect(view.body).toEqual({ error: mode === 'hang' ? MESSAGES.catalogueTimeout : MESSAGES.catalogueUnavailable });
  });

  it('counts the routes by pattern in /metrics, never by the name asked for', async () => {
    const { server } = await start();
    // The second of each is answered by the response cache in front of Express, which counts it the same way.
    await request(server).get(categoryPath(HOME_AND_GARDEN)).expect(200);
    await request(server).get(categoryPath(HOME_AND_GARDEN)).expect(200);
    await request(server).get('/api/products/category/secret-name').expect(200);
    await request(server).get('/api/products/categories').expect(200);
    const metrics = (await request(server).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^http_response_cache_answers_total [1-9]/m);
    expect(metrics).toContain('http_request_duration_seconds_count{route="/api/products/category/:name",method="GET",status="200"} 3');
    expect(metrics).toContain('http_request_duration_seconds_count{route="/api/products/categories",method="GET",status="200"} 1');
    expect(metrics).not.toContain('secret-name');
    expect(metrics).not.toContain('garden');
  });
});

describe('bad query input', () => {
  it.each([
    ['limit=-1', LIST_OPTIONS_ERRORS.limit],
    ['limit=0', LIST_OPTIONS_ERRORS.limit],
    ['limit=2.5', LIST_OPTIONS_ERRORS.limit],
    ['limit=abc', LIST_OPTIONS_ERRORS.limit],
    ['limit=', LIST_OPTIONS_ERRORS.limit],
    ['limit=10001', LIST_OPTIONS_ERRORS.limit],
    ['limit=1&limit=2', LIST_OPTIONS_ERRORS.limitRepeated],
    ['sort=price', LIST_OPTIONS_ERRORS.sort],
    ['sort=', LIST_OPTIONS_ERRORS.sort],
    ['sort=asc&sort=desc', LIST_OPTIONS_ERRORS.sortRepeated],
  ])('answers /api/products?%s with a 400 naming the parameter, before asking the upstream', async (query, error) => {
    const { server, upstream } = await start();
    const response = await request(server).get(`/api/products?${query}`).expect(400, { error });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(upstream.requestCount()).toBe(0);
  });
});

describe('search text the document accepts, however odd', () => {
  it('searches a NUL, controls, a replacement character and text at its longest, each a 200 with what the rule finds', async () => {
    const withNul = { ...FIXTURE_PRODUCTS[0]!, id: 901, title: 'zip\0zap \u0001 \uFFFD' };
    const { server } = await start({ products: [...FIXTURE_PRODUCTS, withNul] });
    const found = async (q: string) =>
      ((await request(server).get('/api/products/search').query({ q }).expect(200)).body as { items: Product[] }).items.map(({ id }) => id);
    expect(await found('p\0z')).toEqual([901]);
    expect(await found('\0')).toEqual([901]);
    expect(await found('zip\0zap')).toEqual([901]);
    expect(await found('\u0001')).toEqual([901]);
    expect(await found('\uFFFD')).toEqual([901]);
    expect(await found('a\0b')).toEqual([]);
    // The trigram index reads past a NUL ("zipzap"): what it finds across one is checked, never taken as found.
    expect(await found('pza')).toEqual([]);
    expect(await found('\0'.repeat(200))).toEqual([]);
  });
});

describe('GET /api/products/search with price and rating filters', () => {
  const fixtureCategories = categoriesOf(FIXTURE_PRODUCTS);

  it.each([
    'minPrice=10&maxPrice=60',
    'minRating=4',
    'q=s&category=jewelery&minPrice=9.99&maxPrice=700&minRating=2&sort=priceHighLow',
    'category=electronics&minRating=3',
    'minPrice=1000',
  ])('answers ?%s with the page the shared rule selects and the counts it takes', async (raw) => {
    const { server } = await start();
    const query = parseProductsQuery(new URLSearchParams(raw), 'strict');
    if ('error' in query) throw new Error(query.error);
    const response = await request(server).get(`/api/products/search?${raw}`).expect(200);
    const page = response.body as ProductSearchPage;
    const expected = filterAndSortProducts(FIXTURE_PRODUCTS, query);
    expect(page.items.map(({ id }) => id)).toEqual(expected.slice(0, PRODUCTS_PAGE_SIZE).map(({ id }) => id));
    expect(page.total).toBe(expected.length);
    expect(page.facets).toEqual(productFacets(FIXTURE_PRODUCTS, query, fixtureCategories));
  });

  it('takes each count without its own kind of filter: a category’s whichever category is chosen', async () => {
    const { server } = await start();
    const chosen = await request(server).get('/api/products/search?category=jewelery&minRating=3').expect(200);
    const other = await request(server).get('/api/products/search?category=electronics&minRating=3').expect(200);
    const { facets } = chosen.body as ProductSearchPage;
    expect(facets.categories).toEqual((other.body as ProductSearchPage).facets.categories);
    expect(facets.categories.map(({ name }) => name)).toEqual(fixtureCategories);
    expect(facets.categories.find(({ name }) => name === 'jewelery')!.count).toBe((chosen.body as ProductSearchPage).total);
  });

  it('answers the counts without filters too, and the same counts for every page and sort', async () => {
    const { server } = await start();
    const first = (await request(server).get('/api/products/search?q=a').expect(200)).body as ProductSearchPage;
    const later = (await request(server).get('/api/products/search?q=a&page=2&sort=nameAZ').expect(200)).body as ProductSearchPage;
    expect(later.facets).toEqual(first.facets);
    expect(first.facets.categories.reduce((sum, { count }) => sum + count, 0)).toBe(first.total);
    expect(first.facets.ratings.find(({ min }) => min === 1)!.count).toBe(first.total);
  });

  it.each([
    ['minPrice=-1', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['maxPrice=abc', PRODUCTS_QUERY_ERRORS.price('maxPrice')],
    ['minPrice=', PRODUCTS_QUERY_ERRORS.price('minPrice')],
    ['minPrice=50&maxPrice=10', PRODUCTS_QUERY_ERRORS.priceRange],
    ['minRating=0', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=5', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=two', PRODUCTS_QUERY_ERRORS.minRating],
    ['minRating=1&minRating=2', PRODUCTS_QUERY_ERRORS.repeated('minRating')],
  ])('answers ?%s with a 400 naming the parameter, before asking the upstream', async (raw, error) => {
    const { server, upstream } = await start();
    const response = await request(server).get(`/api/products/search?${raw}`).expect(400, { error });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(upstream.requestCount()).toBe(0);
  });
});

describe('GET /api/products/suggestions', () => {
  it.each(['mens', 'JACKET', ' gold ', 'e', 'clothing', 'zzz-none', ''])(
    'suggests for %j what the shared rule does: the first products and the matching categories',
    async (search) => {
      const { server } = await start();
      const response = await request(server)
        .get(`/api/products/suggestions?${new URLSearchParams({ q: search }).toString()}`)
        .expect(200);
      const suggestions = response.body as ProductSuggestions;
      const expected = productSuggestions(FIXTURE_PRODUCTS, categoriesOf(FIXTURE_PRODUCTS), search);
      expect(suggestions.products.map(({ id }) => id)).toEqual(expected.products.map(({ id }) => id));
      expect(suggestions.products.every(({ image }) => /^\/api\/products\/[0-9]+\/image$/.test(image))).toBe(true);
      expect(suggestions.categories).toEqual(expected.categories);
      expect(suggestions.products.length).toBeLessThanOrEqual(SUGGESTED_PRODUCTS);
    },
  );

  it('suggests nothing without a text, and answers from the cached list like the other views', async () => {
    const { server, upstream } = await start();
    await request(server).get('/api/products/suggestions').expect(200, { products: [], categories: [] });
    const first = await request(server).get('/api/products/suggestions?q=a').expect(200);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=/);
    expect(upstream.requestedPaths()).toEqual(['/products']);
  });

  it.each([
    ['q=a&q=b', PRODUCTS_QUERY_ERRORS.repeated('q')],
    [`q=${'a'.repeat(201)}`, PRODUCTS_QUERY_ERRORS.search],
  ])('answers ?%s with a 400 naming the parameter, before asking the upstream', async (raw, error) => {
    const { server, upstream } = await start();
    await request(server).get(`/api/products/suggestions?${raw}`).expect(400, { error });
    expect(upstream.requestCount()).toBe(0);
  });
});
