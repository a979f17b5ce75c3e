import { lazy, type ComponentType } from 'react';
import { matchRoutes, useRoutes, type Params, type RouteObject } from 'react-router-dom';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { Layout } from './layout';

/** A page of the app: its own chunk, loaded when a URL first needs it. */
export interface AppPage {
  /** The page module's path in Vite's build manifest, where the server finds the chunk to preload for a URL. */
  readonly source: string;
  /** Loads the chunk (main.tsx loads the first page's before hydrating, so it hydrates in one pass). */
  readonly load: () => Promise<ComponentType>;
  readonly Component: ComponentType;
}

function page(source: string, load: () => Promise<ComponentType>): AppPage {
  return { source, load, Component: lazy(async () => ({ default: await load() })) };
}

// Each page is its own chunk: Swiper (home only) never reaches the products page's download.
export const PAGES = {
  home: page('src/pages/home-page.tsx', () => import('../pages/home-page').then((m) => m.HomePage)),
  products: page('src/pages/products-page.tsx', () => import('../pages/products-page').then((m) => m.ProductsPage)),
  productDetails: page('src/pages/product-details-page.tsx', () =>
    import('../pages/product-details-page').then((m) => m.ProductDetailsPage),
  ),
  notFound: page('src/pages/not-found-page.tsx', () => import('../pages/not-found-page').then((m) => m.NotFoundPage)),
} as const;

type PageRoute = RouteObject & { handle: AppPage };

function route(path: string | null, appPage: AppPage): PageRoute {
  const { Component } = appPage;
  return { ...(path === null ? { index: true } : { path }), element: <Component />, handle: appPage };
}

/**
 * The route table, read by the app (AppRoutes) and by whoever needs to know which page a URL shows before rendering
 * it (matchPage). Declarative routes, not a data router: the app loads no data through the router, and the data
 * router would add ~16 KB gzip to every page, past the /products budget.
 */
const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      route(null, PAGES.home),
      route(PAGE_PATHS.products, PAGES.products),
      route(PAGE_PATHS.productDetailsPattern, PAGES.productDetails),
      route('*', PAGES.notFound),
    ],
  },
];

/** Mounted in a BrowserRouter by main.tsx, a StaticRouter by entry-server.tsx and a MemoryRouter by tests. */
export function AppRoutes() {
  return useRoutes(routes);
}

/** The page a path shows and its parameters (`id` of `/productdetails/:id`); every path has one (the not-found page). */
export function matchPage(pathname: string): { page: AppPage; params: Params } {
  const match = matchRoutes(routes, pathname)?.at(-1);
  const handle = match?.route.handle as AppPage | undefined;
  return { page: handle ?? PAGES.notFound, params: match?.params ?? {} };
}
