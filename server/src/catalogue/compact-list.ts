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
 * per fill (buildCompactList), by the thread that fills the list. Typed arrays only (and the few categories'
 * names), so it moves between threads without a copy and without one JavaScript object a product: the short-lived
 * thread that fills the list hands it to the thread that keeps it (list-keeper.ts).
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
  /** Each title lower-cased as the search rule compares it (shared/src/sort.ts), as UTF-8. */
  lowerTitles: TextColumn;
  /** The list's order under each sort and by id (positions), each stable: ties keep the catalogue's order. */
  orders: Record<ProductOrder | 'idAsc' | 'idDesc', Uint32Array>;
  /** The source's own image location of each product (the public JSON names this server's image route). */
  sourceImages: TextColumn;
}

/** One string a product, as UTF-8 one after the other: product i's is `bytes[starts[i]..starts[i + 1])`. */
export interface TextColumn {
  bytes: Uint8Array;
  starts: Uint32Array;
}

function textColumn(strings: readonly string[]): TextColumn {
  const starts = new Uint32Array(strings.length + 1);
  for (const [index, text] of strings.entries()) starts[index + 1] = starts[index]! + Buffer.byteLength(text, 'utf8');
  const bytes = new Uint8Array(starts[strings.length]!);
  const out = Buffer.from(bytes.buffer);
  for (const [index, text] of strings.entries()) out.write(text, starts[index]!, 'utf8');
  return { bytes, starts };
}

function textAt({ bytes, starts }: TextColumn, index: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', starts[index], starts[index + 1]);
}

/**
 * Which titles hold the needle, a flag a product: one byte search through all the titles' UTF-8 (a match of
 * UTF-8 bytes is a match of the characters), each match kept when it lies within one title.
 */
function titlesHolding({ bytes, starts }: TextColumn, needle: string): Uint8Array {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pattern = Buffer.from(needle, 'utf8');
  const holding = new Uint8Array(starts.length - 1);
  let position = 0;
  let from = 0;
  for (let at = haystack.indexOf(pattern, from); at !== -1; at = haystack.indexOf(pattern, from)) {
    while (starts[position + 1]! <= at) position++;
    const end = starts[position + 1]!;
    if (at + pattern.length <= end) {
      holding[position] = 1;
      from = end;
    } else {
      from = at + 1;
    }
  }
  return holding;
}

const ORDERS = Object.keys(COMPARATORS) as ProductOrder[];

/** The list as its products' JSON and indexes. `json` is allocated by `allocate` (shared memory for a kept list). */
export function buildCompactList(
  products: readonly Product[],
  allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
): CompactList {
  // Each product's JSON is written straight into the list's buffer: no Buffer a product, whose small allocations
  // the allocator would keep after the fill.
  const texts = products.map((product) => JSON.stringify(toPublicProduct(product)));
  const starts = new Uint32Array(products.length + 1);
  let length = 1;
  for (const [position, text] of texts.entries()) {
    starts[position] = length;
    length += Buffer.byteLength(text, 'utf8') + 1;
  }
  starts[products.length] = Math.max(length, 2);
  const json = allocate(Math.max(length, 2));
  const out = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
  out[0] = 0x5b; // [
  for (const [position, text] of texts.entries()) {
    const start = starts[position]!;
    out[start + out.write(text, start, 'utf8')] = 0x2c; // ,
  }
  out[out.length - 1] = 0x5d; // ]

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
    lowerTitles: textColumn(products.map((product) => product.title.toLocaleLowerCase())),
    orders,
    sourceImages: textColumn(products.map((product) => product.image)),
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
  const holding = needle === '' ? undefined : titlesHolding(list.lowerTitles, needle);
  const matches: number[] = [];
  for (let step = 0; step < list.ids.length; step++) {
    const position = order === undefined ? step : order[step]!;
    if (categoryNumber !== -1 && list.categoryOf[position] !== categoryNumber) continue;
    if (holding !== undefined && holding[position] === 0) continue;
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
        JSON.stringify(products.map((product, position) => ({ ...product, image: textAt(list.sourceImages, position) }))),
        'utf8',
      );
    }
  }
}
