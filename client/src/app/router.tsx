import type { ComponentType } from 'react';
import { matchRoutes, useRoutes, type Params, type RouteObject } from 'react-router-dom';
import { PAGE_ROUTES, type PageName } from '@catalogue/shared/page-routes';
import type { LazyChunk } from '../lib/lazy-chunk';
import { galleryChunk, HomePage } from '../pages/home-page';
import { NotFoundPage } from '../pages/not-found-page';
import { ProductDetailsPage } from '../pages/product-details-page';
import { ProductsPage } from '../pages/products-page';
import { Layout } from './layout';

/** A page of the app and the chunks it loads on demand. */
export interface AppPage {
  readonly Component: ComponentType;
  readonly chunks: readonly LazyChunk[];
}

/**
 * The pages are part of the main bundle, not lazy chunks: styled-components numbers its components in the order they
 * are created, and the class names in the server's HTML match the browser's only if both create them in the same
 * order. A server that has rendered other pages would have created their components first; the browser, loading one
 * page's chunk, would not. So the one part loaded on demand is home's carousel (Swiper), the only styled module both
 * sides create last, which keeps Swiper out of the other pages' download.
 */
export const PAGES = {
  home: { Component: HomePage, chunks: [galleryChunk] },
  products: { Component: ProductsPage, chunks: [] },
  productDetails: { Component: ProductDetailsPage, chunks: [] },
  notFound: { Component: NotFoundPage, chunks: [] },
} as const satisfies Record<PageName, AppPage>;

/**
 * The site's page route table (shared/src/page-routes.ts, which the server resolves requests with) as React Router
 * routes, read by the app (AppRoutes) and by whoever needs to know which page a URL shows before rendering it
 * (matchPage). Declarative routes, not a data router: the app loads no data through the router, and the data router
 * would add ~16 KB gzip to every page, past the /products budget.
 */
const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: PAGE_ROUTES.map(({ page, path }): RouteObject => {
      const { Component } = PAGES[page];
      return { path, element: <Component />, handle: PAGES[page] };
    }),
  },
];

/** Mounted in a BrowserRouter by start-app.tsx, a StaticRouter by entry-server.tsx and a MemoryRouter by tests. */
export function AppRoutes() {
  return useRoutes(routes);
}

/** The page a path shows and its parameters (`id` of `/productdetails/:id`); every path has one (the not-found page). */
export function matchPage(pathname: string): { page: AppPage; params: Params } {
  const match = matchRoutes(routes, pathname)?.at(-1);
  return { page: (match?.route.handle as AppPage | undefined) ?? PAGES.notFound, params: match?.params ?? {} };
}
