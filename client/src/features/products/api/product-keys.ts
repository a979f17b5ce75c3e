/** Query keys, general → specific, so `['products']` invalidates everything product-related at once. */
export const productKeys = {
  all: ['products'] as const,
  list: () => [...productKeys.all, 'list'] as const,
  gallery: () => [...productKeys.all, 'gallery'] as const,
  detail: (id: number | null) => [...productKeys.all, 'detail', id] as const,
};
