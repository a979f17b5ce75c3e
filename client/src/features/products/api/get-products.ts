import { useCallback, useSyncExternalStore } from 'react';
import { hashKey, keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { productsQueryOf } from '@catalogue/shared/page-routes';
import type { Product } from '@catalogue/shared/product';
import { type ProductSearchPage, type ProductsQuery, productsQueryString } from '@catalogue/shared/product-paging';
import { API_PATHS } from '@catalogue/shared/routes';
import { useApiClient, type ApiClient } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/** The gallery size (docs/product.md, "Home"): the home carousel shows the first 6 products of the catalogue. */
const GALLERY_SIZE = 6;

export function getProducts(api: ApiClient, signal?: AbortSignal): Promise<Product[]> {
  return api.getJson<Product[]>(API_PATHS.products, signal);
}

/** `/api/products/search?…` for a list state, in the site's one spelling (shared/src/product-paging.ts). */
export function productsSearchPath(query: ProductsQuery): string {
  const search = productsQueryString(query);
  return search === '' ? API_PATHS.search : `${API_PATHS.search}?${search}`;
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
 * One page of a search by the server. While the next page or search is on its way, the last one stays on screen
 * (placeholder data), so the grid never empties between keystrokes.
 */
export function getProductsSearchQueryOptions(api: ApiClient, query: ProductsQuery) {
  return queryOptions({
    queryKey: productKeys.search(query),
    queryFn: ({ signal }) => api.getJson<ProductSearchPage>(productsSearchPath(query), signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}

export function getCategoriesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: productKeys.categories(),
    queryFn: ({ signal }) => api.getJson<string[]>(API_PATHS.categories, signal),
    refetchOnWindowFocus: false,
  });
}

/**
 * The gallery has its own cache key (docs/product.md keeps it apart from the list). It reuses the list when the
 * browser holds it; otherwise it asks for the catalogue's first page, never the whole list, which may be tens of
 * megabytes. When that page is the whole catalogue, it is kept as the list too, so visiting Home then Products
 * still costs one request.
 */
export function getGalleryQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: productKeys.gallery(),
    queryFn: async ({ client, signal }) => {
      const list = client.getQueryData<Product[]>(productKeys.list());
      if (list) return galleryOf(list);
      const first = await api.getJson<ProductSearchPage>(productsSearchPath(productsQueryOf({ kind: 'home' })), signal);
      if (first.items.length === first.catalogueSize) client.setQueryData(productKeys.list(), first.items);
      return galleryOf(first.items);
    },
    refetchOnWindowFocus: false,
  });
}

/** The gallery of a list or of the catalogue's first page: its first products. */
export function galleryOf(products: readonly Product[]): Product[] {
  return products.slice(0, GALLERY_SIZE);
}

/**
 * Whether the browser holds the whole list: a subscription to its cache entry, so a page re-renders when the list
 * arrives (the gallery's first page kept as the list, another page's fetch) or is dropped, not a snapshot of render time.
 */
export function useListHeld(): boolean {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => {
      const listHash = hashKey(productKeys.list());
      return queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === listHash) onChange();
      });
    },
    [queryClient],
  );
  const held = () => queryClient.getQueryData(productKeys.list()) !== undefined;
  return useSyncExternalStore(subscribe, held, held);
}

/** The whole list, asked for only when `enabled` (a catalogue small enough to travel); a copy held is read either way. */
export function useProducts(enabled: boolean) {
  return useQuery({ ...getProductsQueryOptions(useApiClient()), enabled });
}

export function useProductsSearch(query: ProductsQuery, enabled: boolean) {
  return useQuery({ ...getProductsSearchQueryOptions(useApiClient(), query), enabled });
}

export function useCategories(enabled: boolean) {
  return useQuery({ ...getCategoriesQueryOptions(useApiClient()), enabled });
}

export function useGalleryProducts() {
  return useQuery(getGalleryQueryOptions(useApiClient()));
}
