import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { searchNeedle } from '@catalogue/shared/sort';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import type { Answer } from '../http/answer.js';
import { jsonAnswer } from './json-answer.js';

/**
 * `/api/products/search`: one page of the products a search, a category and a sort select from the cached list,
 * answered with the list entry's freshness, never another upstream request. Like the list's views
 * (list-views.ts), each page's body is cut from the list where it is held (catalogue-list.ts) and compressed once
 * per list fill, then only picked.
 */
export interface SearchView {
  /** The page's answer: waits for the list (a miss asks the upstream; its errors are the list's). */
  get(query: ProductsQuery): Promise<Answer>;
  /** The page's answer if the list is a fresh hit and the page's body is prepared already; never waits. */
  peek(query: ProductsQuery): Answer | undefined;
}

/** Room for several hundred pages: a page of 24 products is about 12 KB of JSON, some 20 KB with its encodings. */
const SEARCH_BODIES_MAX_BYTES = 8 * 1024 * 1024;

/** The key of the body a query answers: the needle (as the rule compares it), the category, the sort, the page. */
function keyOf({ search, category, sort, page }: ProductsQuery): string {
  return JSON.stringify([searchNeedle(search), sort, page, category]);
}

export function createSearchView(catalogue: CachedCatalogue): SearchView {
  const bodies = createDerivedBodyCache(SEARCH_BODIES_MAX_BYTES);
  return {
    async get(query) {
      const list = await catalogue.listProducts();
      const body = await bodies.get(keyOf(query), list.body, () => list.value.searchPage(query), true);
      return jsonAnswer({ ...list, body });
    },
    peek(query) {
      const list = catalogue.peekList();
      const body = list && bodies.peek(keyOf(query), list.body);
      return body && list && jsonAnswer({ ...list, body });
    },
  };
}
