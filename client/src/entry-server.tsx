/**
 * The app rendered on the server: Vite builds this file into dist/server/entry-server.js (`npm run build`), which the
 * server loads at start-up and calls for every page it renders. The browser hydrates the result (main.tsx). See
 * docs/pages.md.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashKey, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { prerender } from 'react-dom/static.edge';
import { StaticRouter } from 'react-router-dom';
import { ServerStyleSheet } from 'styled-components';
import type { Manifest } from 'vite';
import { MESSAGES } from '@catalogue/shared/messages';
import type { PageData, RenderRequest, RenderResult } from '@catalogue/shared/page-render';
import { pageOf, type PageRoute } from '@catalogue/shared/page-routes';
import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { API_PATHS } from '@catalogue/shared/routes';
import { App } from './app/app';
import { AppRoutes, PAGES } from './app/router';
import { getProductQueryOptions } from './features/products/api/get-product';
import {
  getCategoriesQueryOptions,
  getGalleryQueryOptions,
  getProductsQueryOptions,
  getProductsSearchQueryOptions,
} from './features/products/api/get-products';
import { productKeys } from './features/products/api/product-keys';
import { ApiError, type ApiClient } from './lib/api-client';
import { pagePreloads } from './lib/page-preloads';
import { createServerQueryClient, serializeQueryState } from './lib/query-client';

/** One page: `route` is the page the server resolved the URL to, so it is not matched again here. */
export async function render({ url, route, data }: RenderRequest): Promise<RenderResult> {
  const page = PAGES[pageOf(route)];
  const api = pageDataApi(data);
  const queryClient = createServerQueryClient();
  const seeded = new Set((await seedPageQueries(queryClient, route, data, api)).map(hashKey));

  const sheet = new ServerStyleSheet();
  try {
    const errors: unknown[] = [];
    // prerender, unlike renderToString, waits for lazy chunks instead of sending the Suspense fallback. Every boundary
    // stays inline (no progressive chunks): an outlined one is revealed by an inline script, which the
    // Content-Security-Policy forbids, so the page would stay hidden behind the spinner.
    // The edge build, not Node's: Node's runs every render in an AsyncLocalStorage, and on Node 20 the first one
    // turns on an async hook for the life of the process, which every request then pays for, pages or not
    // (docs/decisions/react-edge-renderer.md).
    const { prelude } = await prerender(
      sheet.collectStyles(
        <App queryClient={queryClient} apiClient={api}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </App>,
      ),
      { onError: (error) => void errors.push(error), progressiveChunkSize: Infinity },
    );
    const html = await new Response(prelude).text();
    // Error boundaries do not run on the server: a page that throws would arrive as the spinner. Fail instead.
    if (errors.length > 0) throw errors[0];
    return {
      html,
      styles: sheet.getStyleTags(),
      state: serializeQueryState(queryClient, (query) => seeded.has(query.queryHash)),
      preloads: pagePreloads(
        BUILD_MANIFEST,
        page.chunks.map((chunk) => chunk.source),
      ),
    };
  } finally {
    sheet.seal();
  }
}

/**
 * Fills the queries a page reads when it opens, as the browser would fetch them, from PageData, and names their keys:
 * those go into the state block. (Home's gallery query fills the list on its way; only the gallery travels.)
 */
async function seedPageQueries(queryClient: QueryClient, route: PageRoute, data: PageData, api: ApiClient): Promise<QueryKey[]> {
  const seed = async <T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>) => {
    await queryClient.prefetchQuery(options);
    return [options.queryKey];
  };
  switch (route.kind) {
    case 'home':
      // A list small enough to travel is the gallery's source, as in the browser; a larger one, its first page.
      if (Array.isArray(data.products)) queryClient.setQueryData(productKeys.list(), data.products);
      return seed(getGalleryQueryOptions(api));
    case 'products': {
      // A small catalogue travels whole, and the browser pages it; a large one travels a page at a time
      // (docs/product.md, "Products"): this page and the category menu. A failure is seeded as the search's.
      if (Array.isArray(data.products)) return seed(getProductsQueryOptions(api));
      const query: ProductsQuery = { search: route.query, category: route.category, sort: route.sort, page: route.page };
      return [...(await seed(getProductsSearchQueryOptions(api, query))), ...(await seed(getCategoriesQueryOptions(api)))];
    }
    case 'product':
      return seed(getProductQueryOptions(api, route.id));
    // An id that is not a number is not asked for: the page says 'Invalid Product ID' (docs/product.md, "Product detail").
    case 'invalid-id':
    case 'not-found':
      return [];
  }
}

const CATEGORIES_PATH = `${API_PATHS.products}/categories`;

/** What the list's paths answer from PageData: the whole list, the categories, or the page the URL asks for. */
function listDataFor(path: string, { products, productsPage }: PageData): unknown {
  if (path === API_PATHS.products) return products;
  if (typeof productsPage !== 'object') return productsPage;
  return path === CATEGORIES_PATH ? productsPage.categories : productsPage.page;
}

/**
 * The API as the page's own query functions call it, answered from what the server fetched: the cache is filled the
 * way the browser fills it, failures included, under the keys the pages read. A failure gets the status and message
 * the API would have sent (docs/api.md, "Errors").
 */
function pageDataApi(data: PageData): ApiClient {
  return {
    getJson<T>(path: string): Promise<T> {
      const list = path === API_PATHS.products || path === CATEGORIES_PATH || path.startsWith(API_PATHS.search);
      const found = list ? listDataFor(path, data) : data.product;
      if (found === 'not-found') return Promise.reject(new ApiError(404, MESSAGES.productNotFound));
      if (found === 'error' || found === undefined) {
        const message = list ? MESSAGES.catalogueUnavailable : MESSAGES.productNotFound;
        return Promise.reject(new ApiError(503, message));
      }
      return Promise.resolve(found as T);
    },
  };
}

/**
 * Vite's manifest of the browser build (dist/.vite/manifest.json, beside this file's dist/server/). Tests render from
 * source, where nothing is built and so there is nothing to preload.
 */
const BUILD_MANIFEST: Manifest = import.meta.env.PROD
  ? (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '.vite', 'manifest.json'), 'utf8')) as Manifest)
  : {};
