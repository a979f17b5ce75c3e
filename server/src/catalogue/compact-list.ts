import type { Product } from '@catalogue/shared/product';
import { LOCAL_LIST_MAX_PRODUCTS, PRODUCTS_PAGE_SIZE, type ProductSearchPage, type ProductsQuery } from '@catalogue/shared/product-paging';
import { COMPARATORS, type ProductOrder, type ProductListView, searchNeedle } from '@catalogue/shared/sort';
import { toPublicProduct } from './public-product.js';
import { sitemapPage, sitemapXml } from './sitemap.js';

/**
 * The product list as the server holds it (docs/decisions/catalogue-off-the-request-thread.md): not 50,000 objects
 * but the public list's JSON, one buffer, with where each product's JSON starts in it, and beside it only what
 * searching, sorting and the sitemap read: ids, lower-cased titles, category numbers, the sort orders. Every answer
 * is cut from these: a page of products is its products' bytes joined, never objects serialised again. Built once
 * per fill (buildCompactList), by the thread that fills the list; plain typed arrays and strings, so it can be
 * handed to another thread as it is.
 */
export interface CompactList {
  /** `[` + each public product's JSON, joined by `,` + `]`: the same bytes as JSON.stringify of the public list. */
  json: Uint8Array;
  /** Where product i's JSON starts in `json`; `starts[size]` is the closing bracket's offset + 1. */
  starts: Uint32Array;
  ids: Float64Array;
  /** Each product's category, as a position in `categories`. */
  categoryOf: Uint16Array;
  /** In the catalogue's order of first appearance (shared/src/categories.ts). */
  categories: string[];
  /** Each title lower-cased as the search rule compares it (shared/src/sort.ts). */
  lowerTitles: string[];
  /** The list's order under each sort and by id (positions), each stable: ties keep the catalogue's order. */
  orders: Record<ProductOrder | 'idAsc' | 'idDesc', Uint32Array>;
  /** The source's own image location of each product (the public JSON names this server's image route). */
  sourceImages: string[];
}

const ORDERS = Object.keys(COMPARATORS) as ProductOrder[];

/** The list as its products' JSON and indexes. `json` is allocated by `allocate` (shared memory for a kept list). */
export function buildCompactList(
  products: readonly Product[],
  allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
): CompactList {
  const pieces = products.map((product) => Buffer.from(JSON.stringify(toPublicProduct(product)), 'utf8'));
  const starts = new Uint32Array(products.length + 1);
  let length = 1;
  for (const [position, piece] of pieces.entries()) {
    starts[position] = length;
    length += piece.length + 1;
  }
  starts[products.length] = Math.max(length, 2);
  const json = allocate(Math.max(length, 2));
  json[0] = 0x5b; // [
  for (const [position, piece] of pieces.entries()) {
    json.set(piece, starts[position]);
    json[starts[position]! + piece.length] = 0x2c; // ,
  }
  json[json.length - 1] = 0x5d; // ]

  const categories: string[] = [];
  const categoryNumbers = new Map<string, number>();
  const categoryOf = new Uint16Array(products.length);
  for (const [position, { category }] of products.entries()) {
    let number = categoryNumbers.get(category);
    if (number === undefined) {
      number = categories.push(category) - 1;
      categoryNumbers.set(category, number);
    }
    categoryOf[position] = number;
  }

  const positions = Array.from(products, (_, position) => position);
  const orders = {} as CompactList['orders'];
  for (const order of ORDERS) {
    const compare = COMPARATORS[order];
    // Array.prototype.sort is stable: ties keep the catalogue's order, as filterAndSortProducts's do.
    orders[order] = Uint32Array.from([...positions].sort((a, b) => compare(products[a]!, products[b]!)));
  }
  orders.idAsc = Uint32Array.from([...positions].sort((a, b) => products[a]!.id - products[b]!.id));
  orders.idDesc = Uint32Array.from([...positions].sort((a, b) => products[b]!.id - products[a]!.id));

  return {
    json,
    starts,
    ids: Float64Array.from(products, (product) => product.id),
    categoryOf,
    categories,
    lowerTitles: products.map((product) => product.title.toLocaleLowerCase()),
    orders,
    sourceImages: products.map((product) => product.image),
  };
}

export function listSize(list: CompactList): number {
  return list.ids.length;
}

/** How many products each category holds, in the order of `categories`. */
export function categorySizes(list: CompactList): number[] {
  const sizes = list.categories.map(() => 0);
  for (const category of list.categoryOf) sizes[category]! += 1;
  return sizes;
}

/** The products a view selects, as positions in its order: filterAndSortProducts's products in its order. */
export function selectPositions(list: CompactList, { category = '', search = '', sort = 'none' }: ProductListView): number[] {
  const needle = searchNeedle(search);
  const categoryNumber = category === '' ? -1 : list.categories.indexOf(category);
  if (category !== '' && categoryNumber === -1) return [];
  const order = sort === 'none' ? undefined : list.orders[sort];
  const matches: number[] = [];
  for (let step = 0; step < list.ids.length; step++) {
    const position = order === undefined ? step : order[step]!;
    if (categoryNumber !== -1 && list.categoryOf[position] !== categoryNumber) continue;
    if (needle !== '' && !list.lowerTitles[position]!.includes(needle)) continue;
    matches.push(position);
  }
  return matches;
}

/** The JSON array of the products at these positions, in this order: their bytes joined. */
function arrayJson(list: CompactList, positions: readonly number[]): Buffer {
  const parts: Uint8Array[] = [OPEN];
  for (const [index, position] of positions.entries()) {
    if (index > 0) parts.push(COMMA);
    parts.push(list.json.subarray(list.starts[position], list.starts[position + 1]! - 1));
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The public products at these positions, as objects (a page's worth: what the page renderer reads). */
function productsAt(list: CompactList, positions: readonly number[]): Product[] {
  return JSON.parse(arrayJson(list, positions).toString('utf8')) as Product[];
}

/** What a selection of the Fake Store's list options asks: a category's products or all, by id if asked, the first `limit`. */
export interface ListSelection {
  /** null: every category. */
  category: string | null;
  byId: 'asc' | 'desc' | null;
  /** null: every product. */
  limit: number | null;
}

/** The questions a held list answers, each with the shape of its answer (plain data: it may cross threads). */
export interface ListQuestions {
  /** `/api/products/search`: one page of what a query selects, as the JSON it answers. */
  searchPage: { ask: ProductsQuery; answer: Uint8Array };
  /** `/api/products?limit&sort` and a category's list, as the JSON they answer. */
  selection: { ask: ListSelection; answer: Uint8Array };
  /** What `/` and `/products` render with: a page of products, the categories, the whole list while it is small. */
  productsPage: { ask: ProductsQuery; answer: ProductsPageContent };
  /** `/sitemap.xml` (page null) or one of its numbered files; null when there is no such file. */
  sitemap: { ask: { origin: string; lastModified: number; page: number | null }; answer: Uint8Array | null };
  /** The list with the source's own image locations, as the JSON replicas share (docs/scaling.md). */
  sourceJson: { ask: null; answer: Uint8Array };
}

export type ListQuestion = { [K in keyof ListQuestions]: { kind: K; ask: ListQuestions[K]['ask'] } }[keyof ListQuestions];

export interface ProductsPageContent {
  page: ProductSearchPage;
  categories: string[];
  /** The whole public list, while it is small enough to travel with the page (LOCAL_LIST_MAX_PRODUCTS). */
  products?: Product[];
  /** Whether the query's category is one the list holds ('' always is). */
  holdsCategory: boolean;
}

function searchPageOf(list: CompactList, { search, category, sort, page }: ProductsQuery): { positions: number[]; total: number } {
  const matches = selectPositions(list, { search, category, sort });
  return { positions: matches.slice((page - 1) * PRODUCTS_PAGE_SIZE, page * PRODUCTS_PAGE_SIZE), total: matches.length };
}

/** Answers one question about a list: the one place each answer is made, whichever thread holds the list. */
export function answerQuestion<K extends keyof ListQuestions>(
  list: CompactList,
  kind: K,
  ask: ListQuestions[K]['ask'],
): ListQuestions[K]['answer'];
export function answerQuestion(list: CompactList, kind: keyof ListQuestions, ask: unknown): unknown {
  const size = listSize(list);
  switch (kind) {
    case 'searchPage': {
      const query = ask as ProductsQuery;
      const { positions, total } = searchPageOf(list, query);
      // The keys in ProductSearchPage's order, as JSON.stringify of the object would write them.
      const tail = `,"total":${total},"page":${query.page},"pageSize":${PRODUCTS_PAGE_SIZE},"catalogueSize":${size}}`;
      return Buffer.concat([Buffer.from('{"items":'), arrayJson(list, positions), Buffer.from(tail)]);
    }
    case 'selection': {
      const { category, byId, limit } = ask as ListSelection;
      const categoryNumber = category === null ? -1 : list.categories.indexOf(category);
      if (category !== null && categoryNumber === -1) return Buffer.from('[]');
      const order = byId === null ? undefined : byId === 'asc' ? list.orders.idAsc : list.orders.idDesc;
      const positions: number[] = [];
      const wanted = limit ?? size;
      for (let step = 0; step < size && positions.length < wanted; step++) {
        const position = order === undefined ? step : order[step]!;
        if (categoryNumber === -1 || list.categoryOf[position] === categoryNumber) positions.push(position);
      }
      return arrayJson(list, positions);
    }
    case 'productsPage': {
      const query = ask as ProductsQuery;
      const { positions, total } = searchPageOf(list, query);
      const page = { items: productsAt(list, positions), total, page: query.page, pageSize: PRODUCTS_PAGE_SIZE, catalogueSize: size };
      return {
        page,
        categories: list.categories,
        holdsCategory: query.category === '' || list.categories.includes(query.category),
        ...(size <= LOCAL_LIST_MAX_PRODUCTS && { products: JSON.parse(Buffer.from(list.json).toString('utf8')) as Product[] }),
      } satisfies ProductsPageContent;
    }
    case 'sitemap': {
      const { origin, lastModified, page } = ask as ListQuestions['sitemap']['ask'];
      const input = { origin, productIds: [...list.ids], categories: list.categories, lastModified: new Date(lastModified) };
      const xml = page === null ? sitemapXml(input) : sitemapPage(input, page);
      return xml === undefined ? null : Buffer.from(xml, 'utf8');
    }
    case 'sourceJson': {
      const products = productsAt(
        list,
        Array.from({ length: size }, (_, position) => position),
      );
      return Buffer.from(
        JSON.stringify(products.map((product, position) => ({ ...product, image: list.sourceImages[position]! }))),
        'utf8',
      );
    }
  }
}
