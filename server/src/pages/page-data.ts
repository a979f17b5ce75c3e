import { type PageRoute, productsQueryOf } from '@catalogue/shared/page-routes';
import type { Product } from '@catalogue/shared/product';
import { pageCount } from '@catalogue/shared/product-paging';
import { relatedProducts, relatedProductsQuery } from '@catalogue/shared/related-products';
import type { CacheEntry, CachedCatalogue, ProductsPageContent } from '../catalogue/caches/cached-catalogue.js';
import { ProductNotFoundError, UpstreamError } from '../catalogue/sources/product-source.js';
import { toPublicProduct } from '../catalogue/list/public-product.js';
import type { Logger } from '../logger.js';
import type { PageData } from './page-renderer.js';

/** A page's data, the status it answers with, and the catalogue entry behind a page that may be cached. */
export interface LoadedPage {
  data: PageData;
  status: 200 | 400 | 404 | 503;
  /** The entry the page was made from: its freshness is the page's, and a kept page counts while it is the catalogue's. */
  entry?: CacheEntry<unknown>;
  /**
   * A second entry the page was made from (a product's page: the list its related products came from): the page is
   * kept only while the catalogue holds both, and is as fresh as the staler of the two.
   */
  alsoFrom?: CacheEntry<unknown>;
}

/**
 * What a page shows, from the catalogue's cached data (docs/pages.md): `/` and `/products` from the list (404 for a
 * category it does not hold or a page past the last), `/productdetails/{id}` from that product and the list (its
 * related products), nothing for an
 * invalid id (400, no upstream request) or an unknown path (404). When the source fails, the page shows its error
 * (503).
 */
export async function loadPage(route: PageRoute, catalogue: CachedCatalogue, logger: Logger): Promise<LoadedPage> {
  try {
    switch (route.kind) {
      case 'home':
      case 'products': {
        const { entry, content } = await catalogue.withList(async (entry) => ({
          entry,
          content: await entry.value.productsPage(productsQueryOf(route)),
        }));
        const data = productsPageData(content);
        // A category the catalogue does not hold shows the list with no products (docs/product.md, "Products"),
        // and so does a page past the last; both answer 404 and are not kept, so stale or made-up links are
        // neither indexed nor cached.
        if (route.kind === 'products' && (!content.holdsCategory || route.page > pageCount(content.page.total))) {
          return { data, status: 404 };
        }
        return { data, status: 200, entry };
      }
      case 'product': {
        const entry = await catalogue.getProduct(route.id);
        const product = toPublicProduct(entry.value);
        const related = await relatedOf(product, catalogue, logger);
        if (related === undefined) return { data: { product }, status: 200 };
        return { data: { product, related: related.products }, status: 200, entry, alsoFrom: related.entry };
      }
      case 'invalid-id':
        return { data: {}, status: 400 };
      case 'not-found':
        return { data: {}, status: 404 };
    }
  } catch (error) {
    const product = route.kind === 'product';
    if (product && error instanceof ProductNotFoundError) return { data: { product: 'not-found' }, status: 404 };
    if (!(error instanceof UpstreamError)) throw error;
    logger.warn({ err: error, page: route.kind }, 'The product source failed; the page shows its error');
    return { data: product ? { product: 'error' } : { products: 'error', productsPage: 'error' }, status: 503 };
  }
}

/**
 * A product's related products (docs/product.md, "Product detail"), read as the list page of its category reads them
 * (the catalogue's first page of that category, in its order), with the list's entry they came from. `undefined`
 * when the list cannot be had: the page still shows its product, is not kept, and the browser asks for them.
 */
async function relatedOf(
  product: Product,
  catalogue: CachedCatalogue,
  logger: Logger,
): Promise<{ products: Product[]; entry: CacheEntry<unknown> } | undefined> {
  try {
    return await catalogue.withList(async (entry) => {
      const { page } = await entry.value.productsPage(relatedProductsQuery(product.category));
      return { products: relatedProducts(page.items, product), entry };
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    logger.warn({ err: error, page: 'product' }, 'The product list failed; the product page shows no related products');
    return undefined;
  }
}

/**
 * What `/` and `/products` render with: the page of products the query selects (one page, whatever the
 * catalogue's size) and the categories; the whole list too while it is small enough to travel, so the browser
 * filters it as the visitor types (docs/product.md, "Products").
 */
function productsPageData({ page, categories, products }: ProductsPageContent): PageData {
  const productsPage = { page, categories };
  return products === undefined ? { productsPage } : { productsPage, products };
}
