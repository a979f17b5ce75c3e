import { type DataTag, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Product } from '@catalogue/shared/product';
import type { ProductSearchPage, ProductsQuery } from '@catalogue/shared/product-paging';
import type { ProductSuggestions } from '@catalogue/shared/product-suggestions';

/**
 * `queryKey` tagged with the data its query holds, as `queryOptions` tags the key it returns (TanStack Query's
 * DataTag): setQueryData and getQueryData under it are typed by that data, and so is what the server seeds under
 * it (client/src/server/seed-queries.ts).
 */
function holding<Data>(queryKey: QueryKey): DataTag<QueryKey, Data, Error> {
  return queryOptions<Data>({ queryKey }).queryKey;
}

/** Query keys, general → specific, so `['products']` invalidates everything product-related at once. */
export const productKeys = {
  all: ['products'] as const,
  list: () => holding<Product[]>([...productKeys.all, 'list']),
  gallery: () => holding<Product[]>([...productKeys.all, 'gallery']),
  /** One page of a search over the whole catalogue, by the server (a catalogue too large to travel). */
  search: ({ search, category, sort, page, minPrice, maxPrice, minRating }: ProductsQuery) =>
    holding<ProductSearchPage>([...productKeys.all, 'search', { search, category, sort, page, minPrice, maxPrice, minRating }]),
  categories: () => holding<string[]>([...productKeys.all, 'categories']),
  /** What the bar's search suggests for a text, as the search compares it (shared/src/sort.ts, searchNeedle). */
  suggestions: (needle: string) => holding<ProductSuggestions>([...productKeys.all, 'suggestions', needle]),
  detail: (id: number | null) => holding<Product>([...productKeys.all, 'detail', id]),
  /** A product's related products (shared/src/related-products.ts): up to four others of its category. */
  related: (id: number, category: string) => holding<Product[]>([...productKeys.all, 'related', { id, category }]),
};
