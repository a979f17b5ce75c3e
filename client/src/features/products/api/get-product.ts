import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { PAGE_MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import { productApiPath } from '@catalogue/shared/routes';
import { ApiError, useApiClient, type ApiClient } from '../../../lib/api-client';
import { productKeys } from './product-keys';

export async function getProduct(api: ApiClient, id: number, signal?: AbortSignal): Promise<Product> {
  const product = await api.getJson<Product | null>(productApiPath(id), signal);
  // docs/product.md, "Product detail": an answer without an id is 'Product not found', like a 404 (and just as final: no retry).
  if (!product || typeof product !== 'object' || product.id === undefined || product.id === null) {
    throw new ApiError(404, PAGE_MESSAGES.productNotFound);
  }
  return product;
}

/** `id` null (not a numeric id) skips the query: the page says 'Invalid Product ID' and asks nothing. */
export function getProductQueryOptions(api: ApiClient, id: number | null) {
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the api client is where to ask, not what (one per QueryClient)
  return queryOptions({
    queryKey: productKeys.detail(id),
    queryFn: id === null ? skipToken : ({ signal }) => getProduct(api, id, signal),
  });
}

export function useProduct(id: number | null) {
  return useQuery(getProductQueryOptions(useApiClient(), id));
}
