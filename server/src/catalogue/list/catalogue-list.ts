import type { Product } from '@catalogue/shared/product';
import { LOCAL_LIST_MAX_PRODUCTS, PRODUCTS_PAGE_SIZE, type ProductSearchPage, type ProductsQuery } from '@catalogue/shared/product-paging';
import { categoriesMatching, SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import { searchNeedle } from '@catalogue/shared/sort';
import { type CompressedBody, type EncodedBody, encodeBody, encodeJsonBody, inFiles } from '../../bodies/encoded-body.js';
import type { Logger } from '../../logger.js';
import { inSpan } from '../../tracing/spans.js';
import type { CatalogueShape } from './catalogue-database.js';
import { catalogueQueries, categoryNumberOf, type ListSelection } from './catalogue-queries.js';
import { type IdOrder, listBody, type MadeList, type Ordered, removeListFiles } from './list-files.js';
import { FailureError } from '../../outcomes/failure.js';
import type { UpstreamValidators } from '../upstream/upstream-validators.js';
import { sitemapPage, sitemapXml } from './sitemap.js';

export type { ListSelection } from './catalogue-queries.js';

/**
 * A question the JSON API asks of the list: the Fake Store's selection (`?limit&sort`, a category), one page of a
 * search with its counts, what the bar suggests for a text, or the categories.
 */
export type ListQuestion =
  | { kind: 'selection'; selection: ListSelection }
  | { kind: 'search'; query: ProductsQuery }
  | { kind: 'suggestions'; search: string }
  | { kind: 'categories' };

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
 * its public bodies, and the questions asked of it, each read from its SQLite file with what one request needs.
 *
 * Owned by its holders (docs/decisions/list-ownership.md): whoever is handed a list holds it once, whoever keeps it
 * past an await takes a hold of its own, and each hold is released exactly once. The last release closes the
 * database and removes the list's files; nothing is closed on a timer.
 */
export interface CatalogueList extends CatalogueShape {
  /** The whole public list, encoded: what `GET /api/products` answers. */
  readonly body: EncodedBody;
  /** What the upstream said of the list it sent (its ETag, Last-Modified): the next refill's question. */
  readonly validators: UpstreamValidators | undefined;
  /**
   * The key `question`'s body is kept under (caches/cached-catalogue.ts): spellings the list reads alike share one; null
   * for the list's own body, `body`.
   */
  bodyKey(question: ListQuestion): string | null;
  /** `question`'s body, encoded; the whole list in an id order from its files. */
  bodyOf(question: ListQuestion): Promise<EncodedBody>;
  /** What `/` and `/products` render with. */
  productsPage(query: ProductsQuery): Promise<ProductsPageContent>;
  /** `/sitemap.xml` (page null) or a numbered file of it; undefined when there is no such file. */
  sitemap(origin: string, lastModified: Date, page: number | null): Promise<Buffer | undefined>;
  /** The list with the source's image locations, as JSON: the copy replicas share through Redis. */
  copyJson(): Promise<Buffer>;
  /** Whether its database answers a question as it should (readiness); false once closed. */
  answers(): boolean;
  /** One more holder. */
  hold(): void;
  /** A holder is done with it; the last closes its database and removes its files. */
  release(): void;
}

/** A whole list in id order that could not be written (the disk, its process killed): the catalogue cannot answer. */
class UnwrittenBodyError extends FailureError {
  readonly failure = 'unavailable';
}

/** Each question asked of a list in a span of its own when traces are on, naming the question. */
const asked = <T>(question: string, work: () => Promise<T>): Promise<T> =>
  inSpan('list question', { 'catalogue.list.question': question }, work);

/** The Fake Store selection of every product, in the catalogue's order. */
const EVERY_PRODUCT: ListSelection = { category: '', sort: null, limit: null };

/** A JSON array of products' JSON as stored. */
const arrayOf = (items: readonly string[]): string => `[${items.join(',')}]`;

/**
 * The list a fill wrote (list-fill.ts), opened for reading here, with its one hold for the caller. `logger`: where a
 * folder that could not be removed is said (the next start on this host removes it: data-folder.ts).
 * `writeInIdOrder`: writes the whole list in an id order into its files (a process of its own: fills/list-fills.ts).
 */
export async function openList(
  { files, shape, etag, idsAscending }: MadeList,
  {
    validators,
    logger,
    writeInIdOrder,
  }: { validators: UpstreamValidators | undefined; logger: Logger; writeInIdOrder: (order: IdOrder) => Promise<Ordered> },
): Promise<CatalogueList> {
  const body = await listBody(files, 'list', etag);
  /** The whole list in each id order, once written: a large list's, in files, made when first asked for. */
  const inIdOrder = new Map<IdOrder, Promise<EncodedBody>>();
  const queries = catalogueQueries(files.database, shape);
  let holders = 1;

  function pageOf({ page, ...shown }: ProductsQuery): { items: string[]; total: number } {
    return queries.page(shown, (page - 1) * PRODUCTS_PAGE_SIZE, PRODUCTS_PAGE_SIZE);
  }

  /** The whole list in `order` from its files, written by the first request that asks, the list held meanwhile. */
  function wholeInIdOrder(order: IdOrder): Promise<EncodedBody> {
    let written = inIdOrder.get(order);
    if (written === undefined) {
      list.hold();
      written = writeInIdOrder(order)
        .then((ordered) => {
          if (!ordered.ok) throw new UnwrittenBodyError(ordered.message);
          return listBody(files, order, ordered.etag);
        })
        .finally(() => list.release());
      inIdOrder.set(order, written);
      // A failure is the asking request's; the next one tries again.
      written.catch(() => inIdOrder.delete(order));
    }
    return written;
  }

  const searchPage = (query: ProductsQuery): Promise<CompressedBody> =>
    asked('searchPage', () => {
      const { items, total } = pageOf(query);
      // The keys in ProductSearchPage's order, as JSON.stringify of the object would write them.
      const facets = JSON.stringify(queries.facets(query));
      const tail = `"total":${total},"page":${query.page},"pageSize":${PRODUCTS_PAGE_SIZE},"catalogueSize":${shape.size},"facets":${facets}}`;
      return encodeBody(Buffer.from(`{"items":${arrayOf(items)},${tail}`, 'utf8'));
    });

  const suggestions = (search: string): Promise<CompressedBody> =>
    asked('suggestions', () => {
      const categories = categoriesMatching(shape.categories, search);
      const products = arrayOf(queries.suggested(search, SUGGESTED_PRODUCTS));
      return encodeBody(Buffer.from(`{"products":${products},"categories":${JSON.stringify(categories)}}`, 'utf8'));
    });

  const selectionBody = (selection: ListSelection): Promise<EncodedBody> =>
    asked('selection', () => {
      const { category, sort, limit } = selection;
      const whole = category === '' && sort !== null && (limit === null || limit >= shape.size);
      if (whole && sort === 'asc' && idsAscending) return Promise.resolve(body);
      // A large list's whole body in another order is written into files once, as its own order was, and held with it.
      if (whole && inFiles(body)) return wholeInIdOrder(sort === 'asc' ? 'idAsc' : 'idDesc');
      return encodeBody(Buffer.from(arrayOf(queries.listed(selection)), 'utf8'));
    });

  /**
   * The key of a Fake Store selection's body: every limit at or past what it selects is no limit, and every unknown
   * category selects nothing, so each such spelling shares one body. The category's name last: sort and limit come
   * from fixed vocabularies, so no name can forge another selection's key.
   */
  function selectionKey({ category, sort, limit }: ListSelection): string | null {
    const number = categoryNumberOf(shape, category);
    if (number === undefined) return 'nothing';
    const size = number === null ? shape.size : shape.categorySizes[number]!;
    const cut = limit !== null && limit < size ? limit : null;
    if (category === '' && sort === null && cut === null) return null;
    return `list|sort:${sort ?? 'none'}|limit:${cut ?? 'all'}${category === '' ? '' : `|name:${category}`}`;
  }

  const list: CatalogueList = {
    ...shape,
    body,
    validators,

    bodyKey: (question) => {
      switch (question.kind) {
        case 'selection':
          return selectionKey(question.selection);
        case 'search': {
          const { search, category, sort, page, minPrice, maxPrice, minRating } = question.query;
          // The needle as the search compares it, and the filters as numbers.
          return `search|${JSON.stringify([searchNeedle(search), sort, page, category, minPrice ?? null, maxPrice ?? null, minRating ?? null])}`;
        }
        case 'suggestions':
          return `suggestions|${JSON.stringify(searchNeedle(question.search))}`;
        case 'categories':
          return 'categories';
      }
    },

    bodyOf: (question) => {
      switch (question.kind) {
        case 'selection':
          return selectionBody(question.selection);
        case 'search':
          return searchPage(question.query);
        case 'suggestions':
          return suggestions(question.search);
        case 'categories':
          return encodeJsonBody(shape.categories);
      }
    },

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
          holdsCategory: categoryNumberOf(shape, query.category) !== undefined,
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

    answers: () => holders > 0 && queries.answers(),

    hold() {
      if (holders === 0) throw new Error('a list was held after its last holder released it');
      holders += 1;
    },

    release() {
      if (holders === 0) throw new Error('a list was released more often than it was held');
      holders -= 1;
      if (holders > 0) return;
      queries.close();
      void removeListFiles(files).then((error) => {
        if (error) logger.warn({ err: error, folder: files.folder }, "Could not remove a list's folder");
      });
    },
  };
  return list;
}
