import type { Product } from '@catalogue/shared/product';
import { LOCAL_LIST_MAX_PRODUCTS, PRODUCTS_PAGE_SIZE, type ProductSearchPage, type ProductsQuery } from '@catalogue/shared/product-paging';
import { type ProductsSelection, searchNeedle } from '@catalogue/shared/sort';
import { type CompactList, listSize, type TextColumn, textAt } from './compact-list.js';
import { sitemapPage, sitemapXml } from './sitemap.js';

/**
 * The questions a compact list (compact-list.ts) answers, and the one place each answer is made, whichever thread
 * asks: each answer is plain data (bytes, or a page's few products), so it may cross threads.
 */
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
  copyJson: { ask: null; answer: Uint8Array };
}

export type QuestionKind = keyof ListQuestions;
/** One question of a kind, as it travels to the thread that holds the list… */
export type QuestionOf<K extends QuestionKind> = { kind: K; ask: ListQuestions[K]['ask'] };
/** …and its answer, tagged with the same kind. */
export type AnswerOf<K extends QuestionKind> = { kind: K; answer: ListQuestions[K]['answer'] };
export type ListQuestion = { [K in QuestionKind]: QuestionOf<K> }[QuestionKind];
export type ListAnswer = { [K in QuestionKind]: AnswerOf<K> }[QuestionKind];

/** What a selection of the Fake Store's list options asks: a category's products or all, by id if asked, the first `limit`. */
export interface ListSelection {
  /** null: every category. */
  category: string | null;
  /** By id, ascending or descending; null: the list's own order. */
  sort: 'asc' | 'desc' | null;
  /** null: every product. */
  limit: number | null;
}

export interface ProductsPageContent {
  page: ProductSearchPage;
  categories: string[];
  /** The whole public list, while it is small enough to travel with the page (LOCAL_LIST_MAX_PRODUCTS). */
  products?: Product[];
  /** Whether the query's category is one the list holds ('' always is). */
  holdsCategory: boolean;
}

/** Answers one question about a list. */
export function answerQuestion<K extends QuestionKind>(
  list: CompactList,
  kind: K,
  ask: ListQuestions[K]['ask'],
): ListQuestions[K]['answer'] {
  const answer: Answerers[K] = ANSWERERS[kind];
  return answer(list, ask);
}

/** The same for a question as it travelled, its answer tagged with its kind. */
export function answerOf(list: CompactList, question: ListQuestion): ListAnswer {
  switch (question.kind) {
    case 'searchPage':
      return { kind: question.kind, answer: ANSWERERS.searchPage(list, question.ask) };
    case 'selection':
      return { kind: question.kind, answer: ANSWERERS.selection(list, question.ask) };
    case 'productsPage':
      return { kind: question.kind, answer: ANSWERERS.productsPage(list, question.ask) };
    case 'sitemap':
      return { kind: question.kind, answer: ANSWERERS.sitemap(list, question.ask) };
    case 'copyJson':
      return { kind: question.kind, answer: ANSWERERS.copyJson(list, question.ask) };
  }
}

/** Whether an answer that travelled back is one to this kind of question (a thread answers in the order asked). */
export function isAnswerTo<K extends QuestionKind>(answer: AnswerOf<QuestionKind>, kind: K): answer is AnswerOf<K> {
  return answer.kind === kind;
}

type Answerers = { [K in QuestionKind]: (list: CompactList, ask: ListQuestions[K]['ask']) => ListQuestions[K]['answer'] };

const ANSWERERS: Answerers = {
  searchPage(list, query) {
    const { positions, total } = searchPageOf(list, query);
    // The keys in ProductSearchPage's order, as JSON.stringify of the object would write them.
    const tail = `,"total":${total},"page":${query.page},"pageSize":${PRODUCTS_PAGE_SIZE},"catalogueSize":${listSize(list)}}`;
    return Buffer.concat([Buffer.from('{"items":'), arrayJson(list, positions), Buffer.from(tail)]);
  },
  selection(list, { category, sort, limit }) {
    const size = listSize(list);
    const categoryNumber = category === null ? -1 : list.categories.indexOf(category);
    if (category !== null && categoryNumber === -1) return Buffer.from('[]');
    const order = sort === null ? undefined : sort === 'asc' ? list.orders.idAsc : list.orders.idDesc;
    const positions: number[] = [];
    const wanted = limit ?? size;
    for (let step = 0; step < size && positions.length < wanted; step++) {
      const position = order === undefined ? step : order[step]!;
      if (categoryNumber === -1 || list.categoryOf[position] === categoryNumber) positions.push(position);
    }
    return arrayJson(list, positions);
  },
  productsPage(list, query) {
    const size = listSize(list);
    const { positions, total } = searchPageOf(list, query);
    const page = { items: productsAt(list, positions), total, page: query.page, pageSize: PRODUCTS_PAGE_SIZE, catalogueSize: size };
    return {
      page,
      categories: list.categories,
      holdsCategory: query.category === '' || list.categories.includes(query.category),
      ...(size <= LOCAL_LIST_MAX_PRODUCTS && { products: JSON.parse(Buffer.from(list.json).toString('utf8')) as Product[] }),
    };
  },
  sitemap(list, { origin, lastModified, page }) {
    const input = { origin, productIds: [...list.ids], categories: list.categories, lastModified: new Date(lastModified) };
    const xml = page === null ? sitemapXml(input) : sitemapPage(input, page);
    return xml === undefined ? null : Buffer.from(xml, 'utf8');
  },
  copyJson(list) {
    const products = productsAt(
      list,
      Array.from({ length: listSize(list) }, (_, position) => position),
    );
    return Buffer.from(
      JSON.stringify(products.map((product, position) => ({ ...product, image: textAt(list.sourceImages, position) }))),
      'utf8',
    );
  },
};

/** The products a view selects, as positions in its order: filterAndSortProducts's products in its order. */
export function selectPositions(list: CompactList, { category = '', search = '', sort = 'none' }: Partial<ProductsSelection>): number[] {
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

function searchPageOf(list: CompactList, { search, category, sort, page }: ProductsQuery): { positions: number[]; total: number } {
  const matches = selectPositions(list, { search, category, sort });
  return { positions: matches.slice((page - 1) * PRODUCTS_PAGE_SIZE, page * PRODUCTS_PAGE_SIZE), total: matches.length };
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
