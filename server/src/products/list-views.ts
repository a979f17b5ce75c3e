import type { CachedCatalogue, CatalogueList } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import { type EncodedBody, encodeJsonBody } from '../bodies/encoded-body.js';
import type { Answer } from '../http/answer.js';
import { jsonAnswer } from './json-answer.js';
import type { ListOptions } from './list-options.js';

/** What a request asks of the product list: the list (`?limit&sort`), its category names, or one category. */
export type ListView = ({ of: 'products' } & ListOptions) | { of: 'categories' } | ({ of: 'category'; name: string } & ListOptions);

/**
 * The views of the cached list, each answered with the list entry's freshness (`X-Cache`, `Age`,
 * `Cache-Control`) and a body of its own: never another upstream request. A view's body is cut from the list
 * where it is held (catalogue-list.ts) and compressed once per list fill (a DerivedBodyCache keyed by the canonical
 * view), so a repeated request only picks bytes, as the list itself does.
 */
export interface ListViews {
  /** The view's answer: waits for the list (a miss asks the upstream; its errors are the list's). */
  get(view: ListView): Promise<Answer>;
  /** The view's answer if the list is a fresh hit and the view's body is prepared already; never waits. */
  peek(view: ListView): Answer | undefined;
}

/**
 * Room for a few dozen views of a large list: a 5,000-product list is about 2.3 MB of JSON, 2.8 MB with its
 * gzip and brotli bodies; most views (a category, a short limit) are a small part of that.
 */
const VIEW_BODIES_MAX_BYTES = 16 * 1024 * 1024;

/** Every view that selects nothing (an unknown category: the key space is anyone's to fill) shares one body. */
const EMPTY_KEY = 'empty';

export function createListViews(catalogue: CachedCatalogue): ListViews {
  const bodies = createDerivedBodyCache(VIEW_BODIES_MAX_BYTES);

  /**
   * The canonical key of a view of this list and how to compute it, or null when the view is the whole list
   * as it is (its own body, its own ETag). A limit at or past the products' count is no limit, so every such
   * spelling shares one body.
   */
  function plan(view: ListView, list: CatalogueList): { key: string; derive: () => Promise<EncodedBody> } | null {
    if (view.of === 'categories') return { key: 'categories', derive: () => encodeJsonBody(list.categories) };
    let nameSuffix = '';
    let size = list.size;
    if (view.of === 'category') {
      const category = list.categories.indexOf(view.name);
      if (category === -1) return { key: EMPTY_KEY, derive: () => encodeJsonBody([]) };
      size = list.categorySizes[category]!;
      // The name last: sort and limit come from fixed vocabularies, so no name can forge another view's key.
      nameSuffix = `|name:${view.name}`;
    }
    const limit = view.limit !== null && view.limit < size ? view.limit : null;
    if (view.of === 'products' && view.sort === null && limit === null) return null;
    const key = `${view.of}|sort:${view.sort ?? 'none'}|limit:${limit ?? 'all'}${nameSuffix}`;
    const category = view.of === 'category' ? view.name : null;
    return { key, derive: () => list.selection({ category, sort: view.sort, limit }) };
  }

  return {
    async get(view) {
      const list = await catalogue.listProducts();
      const planned = plan(view, list.value);
      if (planned === null) return jsonAnswer(list);
      const body = await bodies.get(planned.key, list.body, planned.derive, true);
      return jsonAnswer({ ...list, body });
    },
    peek(view) {
      const list = catalogue.peekList();
      if (list === undefined) return undefined;
      const planned = plan(view, list.value);
      // The list as it is: its own entry, as the most asked-for request deserves.
      if (planned === null) return jsonAnswer(list);
      const body = bodies.peek(planned.key, list.body);
      return body && jsonAnswer({ ...list, body });
    },
  };
}
