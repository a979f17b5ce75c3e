import type { ProductsQuery } from '@catalogue/shared/product-paging';

/** Query keys, general → specific, so `['products']` invalidates everything product-related at once. */
export const productKeys = {
  all: ['products'] as const,
  list: () => [...productKeys.all, 'list'] as const,
  gallery: () => [...productKeys.all, 'gallery'] as const,
  /** One page of a search over the whole catalogue, by the server (a catalogue too large to travel). */
  search: ({ search, category, sort, page }: ProductsQuery) => [...productKeys.all, 'search', { search, category, sort, page }] as const,
  categories: () => [...productKeys.all, 'categories'] as const,
  detail: (id: number | null) => [...productKeys.all, 'detail', id] as const,
  /** A product's related products (shared/src/related-products.ts): up to four others of its category. */
  related: (id: number, category: string) => [...productKeys.all, 'related', { id, category }] as const,
};
