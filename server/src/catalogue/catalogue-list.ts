import type { Product } from '@catalogue/shared/product';
import { LOCAL_LIST_MAX_PRODUCTS, PRODUCTS_PAGE_SIZE, type ProductSearchPage, type ProductsQuery } from '@catalogue/shared/product-paging';
import { categoriesMatching, SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import { type CompressedBody, type EncodedBody, encodeBody } from '../bodies/encoded-body.js';
import { inSpan } from '../tracing/spans.js';
import type { CatalogueShape } from './catalogue-database.js';
import { catalogueQueries, type ListSelection } from './catalogue-queries.js';
import { listBody, type MadeList, removeListFiles } from './list-files.js';
import { sitemapPage, sitemapXml } from './sitemap.js';

export type { ListSelection } from './catalogue-queries.js';

export interface ProductsPageContent {
  page: ProductSearchPage;
  categories: string[];
  /** The whole public list, while it is small enough to travel with the page (LOCAL_LIST_MAX_PRODUCTS). */
  products?: Product[];
  /** Whether the query's category is one the list holds ('' always is). */
  holdsCategory: boolean;
}

/**
 * The product list as the request thread sees it (docs/decisions/catalogue-in-sqlite.md): its size and categories,
 * its public body, and the questions asked of it, each read from its SQLite file with what one request needs.
 */
export interface CatalogueList extends CatalogueShape {
  /** The whole public list, encoded: what `GET /api/products` answers. */
  readonly body: EncodedBody;
  /** One page of a search's products, encoded: what `/api/products/search` answers. */
  searchPage(query: ProductsQuery): Promise<CompressedBody>;
  /** What the bar's search suggests for `search` (shared/src/product-suggestions.ts), encoded. */
  suggestions(search: string): Promise<CompressedBody>;
  /** The Fake Store list's selection (`?limit&sort`, a category), encoded. */
  selection(selection: ListSelection): Promise<CompressedBody>;
  /** What `/` and `/products` render with. */
  productsPage(query: ProductsQuery): Promise<ProductsPageContent>;
  /** `/sitemap.xml` (page null) or a numbered file of it; undefined when there is no such file. */
  sitemap(origin: string, lastModified: Date, page: number | null): Promise<Buffer | undefined>;
  /** The list with the source's image locations, as JSON: the copy replicas share through Redis. */
  copyJson(): Promise<Buffer>;
  /** Told by the catalogue that it no longer serves this list (a newer one replaced it): its files go. */
  letGo(): void;
}

/**
 * How long a list replaced stays open by default: a request that took it from the cache just before the switch may
 * still ask it a question after an await (a page renders with it); none takes this long.
 */
export const CLOSE_AFTER_MS = 10_000;

/** Each question asked of a list in a span of its own when traces are on, naming the question. */
const asked = <T>(question: string, work: () => Promise<T>): Promise<T> =>
  inSpan('list question', { 'catalogue.list.question': question }, work);

/** The Fake Store selection of every product, in the catalogue's order. */
const EVERY_PRODUCT: ListSelection = { category: '', sort: null, limit: null };

/** A JSON array of products' JSON as stored. */
const arrayOf = (items: readonly string[]): string => `[${items.join(',')}]`;

/** The list a fill wrote (list-fill.ts), opened for reading here; once let go of, closed and removed `closeAfterMs` later. */
export async function openList({ files, shape, etag }: MadeList, closeAfterMs = CLOSE_AFTER_MS): Promise<CatalogueList> {
  const body = await listBody(files, etag);
  const queries = catalogueQueries(files.database, shape);
  const holds = (category: string) => category === '' || shape.categories.includes(category);

  function pageOf({ page, ...shown }: ProductsQuery): { items: string[]; total: number } {
    return queries.page(shown, (page - 1) * PRODUCTS_PAGE_SIZE, PRODUCTS_PAGE_SIZE);
  }

  return {
    ...shape,
    body,

    searchPage: (query) =>
      asked('searchPage', () => {
        const { items, total } = pageOf(query);
        // The keys in ProductSearchPage's order, as JSON.stringify of the object would write them.
        const facets = JSON.stringify(queries.facets(query));
        const tail = `"total":${total},"page":${query.page},"pageSize":${PRODUCTS_PAGE_SIZE},"catalogueSize":${shape.size},"facets":${facets}}`;
        return encodeBody(Buffer.from(`{"items":${arrayOf(items)},${tail}`, 'utf8'));
      }),

    suggestions: (search) =>
      asked('suggestions', () => {
        const categories = categoriesMatching(shape.categories, search);
        const products = arrayOf(queries.suggested(search, SUGGESTED_PRODUCTS));
        return encodeBody(Buffer.from(`{"products":${products},"categories":${JSON.stringify(categories)}}`, 'utf8'));
      }),

    selection: (selection) => asked('selection', () => encodeBody(Buffer.from(arrayOf(queries.listed(selection)), 'utf8'))),

    productsPage: (query) =>
      asked('productsPage', () => {
        const { items, total } = pageOf(query);
        return Promise.resolve({
          page: {
            items: JSON.parse(arrayOf(items)) as Product[],
            total,
            page: query.page,
            pageSize: PRODUCTS_PAGE_SIZE,
            catalogueSize: shape.size,
            facets: queries.facets(query),
          },
          categories: shape.categories,
          holdsCategory: holds(query.category),
          ...(shape.size <= LOCAL_LIST_MAX_PRODUCTS && { products: JSON.parse(arrayOf(queries.listed(EVERY_PRODUCT))) as Product[] }),
        });
      }),

    sitemap: (origin, lastModified, page) =>
      asked('sitemap', () => {
        const input = { origin, productCount: shape.size, productIds: queries.ids, categories: shape.categories, lastModified };
        const xml = page === null ? sitemapXml(input) : sitemapPage(input, page);
        return Promise.resolve(xml === undefined ? undefined : Buffer.from(xml, 'utf8'));
      }),

    copyJson: () => Promise.resolve(Buffer.from(arrayOf([...queries.sourceJson()]), 'utf8')),

    letGo() {
      setTimeout(() => {
        queries.close();
        void removeListFiles(files);
      }, closeAfterMs).unref();
    },
  };
}
