import { LRUCache } from 'lru-cache';
import type { PreparedBody } from '../catalogue/prepared-body.js';

/**
 * Rendered pages, each kept with the catalogue entry it was rendered from. An entry counts only while the
 * catalogue still holds that very entry (the same prepared body, compared by identity): once the catalogue
 * refills, the page is rendered again from the new data, so a fresh fill never serves old HTML, and no timer or
 * invalidation is needed to get there.
 *
 * Bounded by bytes (identity, gzip and brotli bodies together), least recently used first: search texts make the
 * space of page URLs unbounded, and a page of a large catalogue carries the whole list for the app to hydrate.
 */
export interface PageCache {
  /** The page kept for `key`, if it was rendered from `source`. */
  peek(key: string, source: PreparedBody): PreparedBody | undefined;
  /**
   * The page for `key` rendered from `source`: the kept one, the one being rendered by another request (renders
   * of one page from one source are shared), or a new one from `render`, then kept when `keep` says so.
   */
  get(key: string, source: PreparedBody, render: () => Promise<PreparedBody>, keep: boolean): Promise<PreparedBody>;
}

interface Entry {
  /**
   * Weak: once the catalogue has replaced this entry, nothing should keep it alive for a page that is no longer
   * valid anyway. The byte budget then bounds all the memory pages hold.
   */
  source: WeakRef<PreparedBody>;
  page: PreparedBody;
}

export function createPageCache(maxBytes: number): PageCache {
  const pages = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: ({ page }) => page.identity.length + page.gzip.length + page.br.length,
  });
  const rendering = new Map<string, { source: PreparedBody; page: Promise<PreparedBody> }>();

  function peek(key: string, source: PreparedBody): PreparedBody | undefined {
    const entry = pages.get(key);
    return entry?.source.deref() === source ? entry.page : undefined;
  }

  return {
    peek,
    get(key, source, render, keep) {
      const kept = peek(key, source);
      if (kept) return Promise.resolve(kept);
      const pending = rendering.get(key);
      if (pending?.source === source) return pending.page;
      const page = render().then((rendered) => {
        // A page bigger than the whole budget is answered but not kept (lru-cache refuses it).
        if (keep) pages.set(key, { source: new WeakRef(source), page: rendered });
        return rendered;
      });
      const entry = { source, page };
      rendering.set(key, entry);
      const forget = () => {
        if (rendering.get(key) === entry) rendering.delete(key);
      };
      page.then(forget, forget);
      return page;
    },
  };
}
