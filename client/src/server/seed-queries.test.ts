import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { MESSAGES } from '@catalogue/shared/messages';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { productKeys } from '../features/products/api/product-keys';
import { ApiError } from '../lib/api-client';
import { pageSeeds, type Seed, seedQueries } from './seed-queries';

const PRODUCTS = [...FIXTURE_PRODUCTS];
const facets = { categories: [{ name: 'jewelery', count: 2 }], ratings: [], price: { min: 1, max: 2 } };
const page = { items: FIXTURE_PRODUCTS.slice(0, 2), total: 2, page: 1, pageSize: 24, catalogueSize: 500, facets };
const categories = ['jewelery'];

describe('pageSeeds', () => {
  it('seeds each page under the keys its queries read', () => {
    expect(pageSeeds(readPageUrl('/').route, { products: PRODUCTS })).toEqual([
      { key: productKeys.gallery(), data: FIXTURE_PRODUCTS.slice(0, 6) },
    ]);
    expect(pageSeeds(readPageUrl('/').route, { productsPage: { page, categories } })).toEqual([
      { key: productKeys.gallery(), data: page.items },
    ]);
    expect(pageSeeds(readPageUrl('/products?q=gold&page=2').route, { products: PRODUCTS })).toEqual([
      { key: productKeys.list(), data: PRODUCTS },
    ]);
    expect(pageSeeds(readPageUrl('/products?q=gold&sort=nameAZ&page=2').route, { productsPage: { page, categories } })).toEqual([
      { key: productKeys.search({ search: 'gold', category: '', sort: 'nameAZ', page: 2 }), data: page },
      { key: productKeys.categories(), data: categories },
    ]);
    expect(pageSeeds(readPageUrl('/productdetails/1').route, { product: FIXTURE_PRODUCTS[0] })).toEqual([
      { key: productKeys.detail(1), data: FIXTURE_PRODUCTS[0] },
    ]);
    const related = FIXTURE_PRODUCTS.slice(1, 4);
    expect(pageSeeds(readPageUrl('/productdetails/1').route, { product: FIXTURE_PRODUCTS[0], related })).toEqual([
      { key: productKeys.detail(1), data: FIXTURE_PRODUCTS[0] },
      { key: productKeys.related(1, "men's clothing"), data: related },
    ]);
    expect(pageSeeds(readPageUrl('/productdetails/abc').route, {})).toEqual([]);
    expect(pageSeeds(readPageUrl('/nope').route, {})).toEqual([]);
  });

  it('seeds a failure as the API words it', () => {
    const [gallery] = pageSeeds(readPageUrl('/').route, { products: 'error', productsPage: 'error' });
    expect(gallery).toEqual({ key: productKeys.gallery(), error: new ApiError(503, MESSAGES.catalogueUnavailable) });
    const [missing] = pageSeeds(readPageUrl('/productdetails/9').route, { product: 'not-found' });
    expect(missing).toEqual({ key: productKeys.detail(9), error: new ApiError(404, MESSAGES.productNotFound) });
  });
});

describe('seedQueries', () => {
  it('sets data and settles failures under the seeds’ keys, without a query function to call', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const failure = new ApiError(404, MESSAGES.productNotFound);
    const keys = await seedQueries(queryClient, [
      { key: productKeys.categories(), data: categories },
      { key: productKeys.detail(9), error: failure },
    ]);
    expect(keys).toEqual([productKeys.categories(), productKeys.detail(9)]);
    expect(queryClient.getQueryData(productKeys.categories())).toEqual(categories);
    const state = queryClient.getQueryState(productKeys.detail(9));
    expect([state?.status, state?.error]).toEqual(['error', failure]);
  });
});

describe('Seed', () => {
  // Checked by the type checker (npm run typecheck): each @ts-expect-error below must be an error, or it fails.
  it('holds under a key only the data that key is tagged with (its query options’ DataTag)', () => {
    const product = FIXTURE_PRODUCTS[0]!;
    const seeds: Seed[] = [
      { key: productKeys.detail(1), data: product },
      { key: productKeys.list(), data: PRODUCTS },
      { key: productKeys.categories(), data: categories },
      { key: productKeys.search({ search: '', category: '', sort: 'none', page: 1 }), data: page },
      { key: productKeys.detail(2), error: new ApiError(404, MESSAGES.productNotFound) },
    ];
    // @ts-expect-error a product's key holds one product, not a list of them
    seeds.push({ key: productKeys.detail(1), data: PRODUCTS });
    // @ts-expect-error the categories are names, not products
    seeds.push({ key: productKeys.categories(), data: PRODUCTS });
    // @ts-expect-error a search's key holds the page with its total, not only its items
    seeds.push({ key: productKeys.search({ search: '', category: '', sort: 'none', page: 1 }), data: page.items });
    // @ts-expect-error the list is products, not product ids
    seeds.push({ key: productKeys.list(), data: PRODUCTS.map(({ id }) => id) });
    expect(seeds).toHaveLength(9);
  });
});
