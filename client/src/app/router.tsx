import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { Layout } from './layout';

// Each page is its own chunk: Swiper (home only) never reaches the products page's download.
const HomePage = lazy(() => import('../pages/home-page').then((m) => ({ default: m.HomePage })));
const ProductsPage = lazy(() => import('../pages/products-page').then((m) => ({ default: m.ProductsPage })));
const ProductDetailsPage = lazy(() => import('../pages/product-details-page').then((m) => ({ default: m.ProductDetailsPage })));
const NotFoundPage = lazy(() => import('../pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));

/**
 * The route table. Declarative routes (not a data router): the app loads no data through the router, and the
 * data router would add ~16 KB gzip to every page, past the /products budget. Mounted in a BrowserRouter by
 * main.tsx and in a MemoryRouter by tests.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path={PAGE_PATHS.products} element={<ProductsPage />} />
        <Route path={PAGE_PATHS.productDetailsPattern} element={<ProductDetailsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
