import { categoriesOf, productsInCategory } from '@catalogue/shared/categories';
import type { Product } from '@catalogue/shared/product';
import type { CacheEntry, CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import { type EncodedBody, encodeJsonBody } from '../http/encoded-body.js';
import { toPublicProduct } from '../catalogue/public-product.js';
import type { Answer } from '../http/answer.js';
import { jsonAnswer } from './json-answer.js';
import { applyListOptions, type ListOptions } from './list-options.js';

/** What a request asks of the product list: the list (`?limit&sort`), its category names, or one category. */
export type ListView = ({ of: 'products' } & ListOptions) | { of: 'categories' } | ({ of: 'category'; name: string } & ListOptions);

/**
 * The views of the cached list, each answered with the list entry's freshness (`X-Cache`, `Age`,
 * `Cache-Control`) and a body of its own: never another upstream request. A view's body is serialised and
 * compressed once per list fill (a DerivedBodyCache keyed by the canonical view), so a repeated request only
 * picks bytes, as the list itself does.
 */
export interface ListViews {
  /** The view's answer: waits for the list (a miss asks the upstream; its errors are the list's). */
  answer(view: ListView): Promise<Answer>;
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

/** Per list fill: the category names, and each category's products once one is asked for. */
interface CategoryIndex {
  categories: string[];
  known: Set<string>;
  members: Map<string, Product[]>;
}

export function createListViews(catalogue: CachedCatalogue): ListViews {
  const bodies = createDerivedBodyCache(VIEW_BODIES_MAX_BYTES);
  // By the list entry's body, the identity the derived bodies are tied to: a refill starts a new index.
  const indexes = new WeakMap<EncodedBody, CategoryIndex>();

  function indexOf(list: CacheEntry<Product[]>): CategoryIndex {
    let index = indexes.get(list.body);
    if (index === undefined) {
      const categories = categoriesOf(list.value);
      index = { categories, known: new Set(categories), members: new Map() };
      indexes.set(list.body, index);
    }
    return index;
  }

  function membersOf(index: CategoryIndex, list: CacheEntry<Product[]>, name: string): Product[] {
    let members = index.members.get(name);
    if (members === undefined) {
      members = productsInCategory(list.value, name);
      index.members.set(name, members);
    }
    return members;
  }

  /**
   * The canonical key of a view of this list and how to compute it, or null when the view is the whole list
   * as it is (its own body, its own ETag). A limit at or past the products' count is no limit, so every such
   * spelling shares one body.
   */
  function plan(view: ListView, list: CacheEntry<Product[]>): { key: string; select: () => unknown } | null {
    if (view.of === 'categories') {
      const { categories } = indexOf(list);
      return { key: 'categories', select: () => categories };
    }
    let products = list.value;
    let nameSuffix = '';
    if (view.of === 'category') {
      const index = indexOf(list);
      if (!index.known.has(view.name)) return { key: EMPTY_KEY, select: () => [] };
      products = membersOf(index, list, view.name);
      // The name last: sort and limit come from fixed vocabularies, so no name can forge another view's key.
      nameSuffix = `|name:${view.name}`;
    }
    const limit = view.limit !== null && view.limit < products.length ? view.limit : null;
    const query = { sort: view.sort, limit };
    if (view.of === 'products' && query.sort === null && query.limit === null) return null;
    const key = `${view.of}|sort:${query.sort ?? 'none'}|limit:${query.limit ?? 'all'}${nameSuffix}`;
    return { key, select: () => applyListOptions(products, query).map(toPublicProduct) };
  }

  return {
    async answer(view) {
      const list = await catalogue.listProducts();
      const planned = plan(view, list);
      if (planned === null) return jsonAnswer(list);
      const body = await bodies.get(planned.key, list.body, () => encodeJsonBody(planned.select()), true);
      return jsonAnswer({ ...list, body });
    },
    peek(view) {
      const list = catalogue.peekList();
      if (list === undefined) return undefined;
      const planned = plan(view, list);
      // The list as it is: its own entry, as the most asked-for request deserves.
      if (planned === null) return jsonAnswer(list);
      const body = bodies.peek(planned.key, list.body);
      return body && jsonAnswer({ ...list, body });
    },
  };
}
