/** Paths of the site's pages and of the JSON API, shared so links, the router and the server agree. */
export const PAGE_PATHS = {
  home: '/',
  products: '/products',
  productDetailsPattern: '/productdetails/:id',
} as const;

/** The query parameters of `/products` (docs/product.md, "Products"): the list's state lives in the URL. */
export const PRODUCTS_PARAMS = {
  search: 'q',
  sort: 'sort',
  category: 'category',
  page: 'page',
  minPrice: 'minPrice',
  maxPrice: 'maxPrice',
  minRating: 'minRating',
} as const;

/**
 * The products list narrowed to one category, `/products?category=<name>`: URLSearchParams encodes the name, so
 * any name (`home & garden/outdoor 🏕️`, quotes, `%`, `?`, `#`) comes back intact.
 */
export function productsInCategoryPath(category: string): string {
  return `${PAGE_PATHS.products}?${new URLSearchParams({ [PRODUCTS_PARAMS.category]: category }).toString()}`;
}

export function productDetailsPath(id: number): string {
  return `/productdetails/${id}`;
}

export const API_PATHS = {
  products: '/api/products',
  /** One page of the products a search, a category and a sort select, over the whole catalogue (docs/api.md, "Routes"). */
  search: '/api/products/search',
  /** Every category of the catalogue, in catalogue order. */
  categories: '/api/products/categories',
  /** What the bar's search suggests as the visitor types (docs/api.md, "Routes"). */
  suggestions: '/api/products/suggestions',
} as const;

export function productApiPath(id: number): string {
  return `/api/products/${id}`;
}

export function productImagePath(id: number): string {
  return `/api/products/${id}/image`;
}
