import type { DataTag, QueryClient, QueryKey } from '@tanstack/react-query';
import { MESSAGES } from '@catalogue/shared/messages';
import type { PageData } from '@catalogue/shared/page-render';
import { type PageRoute, productsQueryOf } from '@catalogue/shared/page-routes';
import { galleryOf } from '../features/products/api/get-products';
import { productKeys } from '../features/products/api/product-keys';
import { ApiError } from '../lib/api-client';

/** Every key a seed may hold data under: what productKeys' functions make (product-keys.ts), each tagged with its data. */
type SeedKey = {
  [Name in keyof typeof productKeys]: (typeof productKeys)[Name] extends (...args: never[]) => infer Key ? Key : never;
}[keyof typeof productKeys];
/** A key and the data its tag says it holds: one such pair per key, so a product under the list's key does not compile. */
type DataSeed<Key> = Key extends DataTag<QueryKey, infer Data, unknown> ? { key: Key; data: Data } : never;

/** What one query holds when the page opens: the data the browser would have fetched, or the error it would have got. */
export type Seed = DataSeed<SeedKey> | { key: QueryKey; error: ApiError };

/** The failures as the API words them (docs/api.md, "Errors"), so the page shows what the browser would. */
const LIST_UNAVAILABLE = (): ApiError => new ApiError(503, MESSAGES.catalogueUnavailable);

/**
 * The queries a page reads when it opens, under the client's own keys (product-keys.ts), with what each holds from
 * the server's PageData: the whole list while it is small enough to travel, else the page of the search the URL asks
 * for and the categories; one product and its related products; a failure as the API would have answered it. An invalid id or an unknown path
 * asks for nothing (docs/product.md, "Product detail").
 */
export function pageSeeds(route: PageRoute, { products, productsPage, product, related }: PageData): Seed[] {
  switch (route.kind) {
    case 'home': {
      // A list small enough to travel is the gallery's products, as in the browser; a larger one, its first page.
      const galleryProducts = Array.isArray(products) ? products : typeof productsPage === 'object' ? productsPage.page.items : undefined;
      return [
        galleryProducts
          ? { key: productKeys.gallery(), data: galleryOf(galleryProducts) }
          : { key: productKeys.gallery(), error: LIST_UNAVAILABLE() },
      ];
    }
    case 'products':
      // A small catalogue travels whole, and the browser pages it; a large one travels a page at a time
      // (docs/product.md, "Products"): this page and the category menu. A failure is seeded as the search's.
      if (Array.isArray(products)) return [{ key: productKeys.list(), data: products }];
      return [
        {
          key: productKeys.search(productsQueryOf(route)),
          ...(typeof productsPage === 'object' ? { data: productsPage.page } : { error: LIST_UNAVAILABLE() }),
        },
        {
          key: productKeys.categories(),
          ...(typeof productsPage === 'object' ? { data: productsPage.categories } : { error: LIST_UNAVAILABLE() }),
        },
      ];
    case 'product': {
      const key = productKeys.detail(route.id);
      if (typeof product === 'object') {
        // Its related products travel with it; without them (the list could not be had) the browser asks for them.
        const relatedSeed = related && { key: productKeys.related(product.id, product.category), data: related };
        return relatedSeed ? [{ key, data: product }, relatedSeed] : [{ key, data: product }];
      }
      // Not found or not to be had, the page says 'Product not found' (docs/api.md, "Errors").
      return [{ key, error: new ApiError(product === 'not-found' ? 404 : 503, MESSAGES.productNotFound) }];
    }
    case 'invalid-id':
    case 'not-found':
      return [];
  }
}

/**
 * Seeds the render's QueryClient with a page's seeds (pageSeeds) and returns their keys: those, and only those,
 * go into the page's state block. Data is set as fetched now (setQueryData); a failure is settled by a fetch that
 * fails at once with it, which is how TanStack Query records one, and the server's client never retries it.
 */
export async function seedQueries(queryClient: QueryClient, seeds: readonly Seed[]): Promise<QueryKey[]> {
  for (const seed of seeds) {
    if ('data' in seed) queryClient.setQueryData(seed.key, seed.data);
    else await queryClient.prefetchQuery({ queryKey: seed.key, queryFn: () => Promise.reject(seed.error) });
  }
  return seeds.map((seed) => seed.key);
}
