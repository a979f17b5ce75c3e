/** Paths of the site's pages and of the JSON API, shared so links, the router and the server agree. */
export const PAGE_PATHS = {
  home: '/',
  products: '/products',
  productDetailsPattern: '/productdetails/:id',
} as const;

export function productDetailsPath(id: number): string {
  return `/productdetails/${id}`;
}

export const API_PATHS = {
  products: '/api/products',
} as const;

export function productApiPath(id: number): string {
  return `/api/products/${id}`;
}

export function productImagePath(id: number): string {
  return `/api/products/${id}/image`;
}
