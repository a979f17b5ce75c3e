import type { Product } from '@catalogue/shared/product';
import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { type EncodedBody, encodeBody } from '../http/encoded-body.js';
import { buildCompactList, categorySizes, type CompactList, listSize } from './compact-list.js';
import {
  answerOf,
  isAnswerTo,
  type ListAnswer,
  type ListQuestion,
  type ListQuestions,
  type ListSelection,
  type ProductsPageContent,
  type QuestionKind,
} from './list-questions.js';
import { productsOfCopy } from './product-schema.js';

export type { ListSelection, ProductsPageContent } from './list-questions.js';

/**
 * The product list as the request thread sees it: its size and categories, its public body, and questions it
 * answers with what one request needs (docs/decisions/catalogue-off-the-request-thread.md). Where its products are
 * is its own business: a small list is held on this thread (localList), a large one by the list keeper's worker
 * thread (list-keeper.ts), and the request thread then holds only the bytes it sends.
 */
export interface CatalogueList {
  readonly size: number;
  readonly categories: readonly string[];
  /** How many products each of `categories` holds. */
  readonly categorySizes: readonly number[];
  /** The whole public list, encoded: what `GET /api/products` answers. */
  readonly body: EncodedBody;
  /** One page of a search's products, encoded: what `/api/products/search` answers. */
  searchPage(query: ProductsQuery): Promise<EncodedBody>;
  /** The list's options (`?limit&sort`, a category), encoded. */
  selection(selection: ListSelection): Promise<EncodedBody>;
  /** What `/` and `/products` render with. */
  productsPage(query: ProductsQuery): Promise<ProductsPageContent>;
  /** `/sitemap.xml` (page null) or a numbered file of it; undefined when there is no such file. */
  sitemap(origin: string, lastModified: Date, page: number | null): Promise<Buffer | undefined>;
  /** The list with the source's image locations, as JSON: the copy replicas share through Redis. */
  copyJson(): Promise<Buffer>;
  /**
   * Told by the catalogue that it no longer serves this list (a newer one replaced it): a large list then has its
   * memory collected on this thread (list-threads/list-keeper.ts); a small one needs nothing.
   */
  letGo(): void;
}

/** How a list's questions are answered: here, or by the thread that holds it. */
export type AskList = (question: ListQuestion) => Promise<ListAnswer>;

/** The answer to one question, of the type its kind says. */
async function answerTo<K extends QuestionKind>(
  ask: AskList,
  kind: K,
  question: Extract<ListQuestion, { kind: K }>,
): Promise<ListQuestions[K]['answer']> {
  const answer = await ask(question);
  if (isAnswerTo(answer, kind)) return answer.answer;
  throw new Error(`a ${kind} question was answered as ${answer.kind}`);
}

/** Bytes that came from another thread as a Uint8Array, viewed as a Buffer again (the same memory). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A CatalogueList over a way to ask it: the one place answers become Buffers and encoded bodies. */
export function catalogueList({
  body,
  ask,
  letGo = () => {},
  ...shape
}: Pick<CatalogueList, 'size' | 'categories' | 'categorySizes' | 'body'> & { ask: AskList; letGo?: () => void }): CatalogueList {
  return {
    ...shape,
    body,
    letGo,
    searchPage: async (query) => encodeBody(asBuffer(await answerTo(ask, 'searchPage', { kind: 'searchPage', ask: query }))),
    selection: async (selection) => encodeBody(asBuffer(await answerTo(ask, 'selection', { kind: 'selection', ask: selection }))),
    productsPage: (query) => answerTo(ask, 'productsPage', { kind: 'productsPage', ask: query }),
    async sitemap(origin, lastModified, page) {
      const question = { origin, lastModified: lastModified.getTime(), page };
      const xml = await answerTo(ask, 'sitemap', { kind: 'sitemap', ask: question });
      return xml === null ? undefined : asBuffer(xml);
    },
    copyJson: async () => asBuffer(await answerTo(ask, 'copyJson', { kind: 'copyJson', ask: null })),
  };
}

/** A list's questions answered on this thread. */
export const askedHere =
  (list: CompactList): AskList =>
  (question) =>
    Promise.resolve(answerOf(list, question));

/** What the request thread knows of a list without asking it. */
export function shapeOf(list: CompactList): Pick<CatalogueList, 'size' | 'categories' | 'categorySizes'> {
  return { size: listSize(list), categories: list.categories, categorySizes: categorySizes(list) };
}

/** A list held on this thread (the embedded catalogue): its compact form (compact-list.ts), answered here. */
export async function listHeldHere(products: readonly Product[]): Promise<CatalogueList> {
  const list = buildCompactList(products);
  const body = await encodeBody(asBuffer(list.json));
  return catalogueList({ ...shapeOf(list), body, ask: askedHere(list) });
}

/** The same from a shared copy's JSON; undefined when it is not a list of valid products. */
export async function listHeldHereFromCopy(json: Buffer): Promise<CatalogueList | undefined> {
  const products = productsOfCopy(json);
  return products && listHeldHere(products);
}
