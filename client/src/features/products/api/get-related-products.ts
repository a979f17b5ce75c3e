import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Product } from '@catalogue/shared/product';
import type { ProductSearchPage } from '@catalogue/shared/product-paging';
import { relatedProducts, relatedProductsQuery } from '@catalogue/shared/related-products';
import { useApiClient, type ApiClient } from '../../../lib/api-client';
import { productsSearchPath } from './get-products';
import { productKeys } from './product-keys';

/**
 * A product's related products (docs/product.md, "Product detail"): the server sends them with the page (its state
 * block); a product opened in the browser takes them from the whole list when it holds it, at once and as fresh as
 * the list, else from its category's first page, as `/products?category=…` asks for it.
 */
export function getRelatedProductsQueryOptions(api: ApiClient, client: QueryClient, product: Product) {
  const { id, category } = product;
  // The whole list, when the browser holds it (a catalogue small enough to travel), gives them at once.
  const list = client.getQueryData<Product[]>(productKeys.list());
  const held = list && relatedProducts(list, product);
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the api client is where to ask, not what; the product's id and category are in the key
  return queryOptions({
    queryKey: productKeys.related(id, category),
    queryFn: async ({ signal }) =>
      relatedProducts((await api.getJson<ProductSearchPage>(productsSearchPath(relatedProductsQuery(category)), signal)).items, product),
    ...(held && { initialData: held, initialDataUpdatedAt: client.getQueryState(productKeys.list())?.dataUpdatedAt }),
    refetchOnWindowFocus: false,
  });
}

/** The related products of the product a page shows. */
export function useRelatedProducts(product: Product) {
  const api = useApiClient();
  const client = useQueryClient();
  return useQuery(getRelatedProductsQueryOptions(api, client, product));
}
