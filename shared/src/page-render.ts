import type { PageRoute } from './page-routes.js';
import type { Product } from './product.js';
import type { ProductSearchPage } from './product-paging.js';

/*
 * The seam between the server and the app it renders (docs/pages.md): `client/src/entry-server.tsx` is built into
 * `client/dist/server/entry-server.js`, which the server loads at start-up and calls for every page it renders.
 * Neither side imports the other, so the shapes they exchange live here.
 */

/**
 * What the server already fetched for this URL (from its cache), so rendering never waits on the network: what each
 * of the page's queries holds when it opens, the render seeds them from it (client/src/server/seed-queries.ts).
 */
export interface PageData {
  /**
   * The whole public product list, only while it is small (LOCAL_LIST_MAX_PRODUCTS, shared/src/product-paging.ts):
   * `/products` then hands it to the browser, which filters and pages it there. 'error' when it could not be had.
   */
  products?: Product[] | 'error';
  /**
   * `/` and `/products`: the page of products the URL asks for (home: the catalogue's first page, the carousel's
   * source) and the catalogue's categories for the menu, or 'error' when the list could not be had.
   */
  productsPage?: ProductsPageData | 'error';
  /** `/productdetails/:id`: the product, 'not-found', or 'error'. Absent for an invalid id (no request made). */
  product?: Product | 'not-found' | 'error';
  /**
   * `/productdetails/:id` with its product: up to four other products of its category (shared/src/related-products.ts),
   * none when it is its category's only one. Absent when the list could not be had: the browser then asks for them.
   */
  related?: Product[];
}

export interface RenderRequest {
  /** Path and query as requested, e.g. `/products?q=bag&sort=priceLowHigh`. */
  url: string;
  /** The page the server resolved the URL to (page-routes.ts), so the renderer need not match it again. */
  route: PageRoute;
  data: PageData;
}

export interface RenderResult {
  /** The markup that goes inside `<div id="root">`. */
  html: string;
  /** The `<style data-styled…>` element(s) from styled-components' ServerStyleSheet. */
  styles: string;
  /** The query cache's dehydrated state as a JSON string, not yet escaped for HTML: the server escapes it. */
  state: string;
  /**
   * Hashed URLs of the route's lazy chunk (home's carousel) and what it imports beyond the entry (`/assets/….js`, to
   * `modulepreload`), and of its stylesheets (`/assets/….css`, to link as stylesheets: the server's HTML already
   * shows the carousel, so its styles must be there before the script arrives). Empty for the other routes.
   */
  preloads: string[];
}

/** One page of the products list as the server renders it. */
export interface ProductsPageData {
  page: ProductSearchPage;
  /** Every category of the catalogue, in catalogue order (shared/src/categories.ts). */
  categories: string[];
}
