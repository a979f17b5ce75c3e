import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '@catalogue/shared/product';
import { API_PATHS } from '@catalogue/shared/routes';
import { useApiClient, type ApiClient } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/** The gallery size (docs/product.md, "Home"): the home carousel shows the first 6 products of the catalogue. */
const GALLERY_SIZE = 6;

export function getProducts(api: ApiClient, signal?: AbortSignal): Promise<Product[]> {
  return api.getJson<Product[]>(API_PATHS.products, signal);
}

export function getProductsQueryOptions(api: ApiClient) {
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the api client is where to ask, not what (one per QueryClient)
  return queryOptions({
    queryKey: productKeys.list(),
    queryFn: ({ signal }) => getProducts(api, signal),
    refetchOnWindowFocus: false,
  });
}

/**
 * The gallery has its own cache key (docs/product.md keeps it apart from the list) but reuses the list's cached
 * answer when there is one, so visiting Home then Products costs one request. The list fetch made for it
 * tries once: the gallery query's own retries are the only ones, or a failing upstream would be asked
 * (1 + retries)² times instead of 1 + retries.
 */
export function getGalleryQueryOptions(api: ApiClient) {
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the api client is where to ask, not what (one per QueryClient)
  return queryOptions({
    queryKey: productKeys.gallery(),
    queryFn: async ({ client }) => {
      const products = await client.ensureQueryData({ ...getProductsQueryOptions(api), retry: false });
      return products.slice(0, GALLERY_SIZE);
    },
    refetchOnWindowFocus: false,
  });
}

export function useProducts() {
  return useQuery(getProductsQueryOptions(useApiClient()));
}

export function useGalleryProducts() {
  return useQuery(getGalleryQueryOptions(useApiClient()));
}
