import type { CacheEntry } from '../catalogue/cached-catalogue.js';
import type { Answer } from '../http/answer.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A catalogue entry as an HTTP answer: JSON, varying by encoding only. Its own module, as the list's views
 * (list-views.ts), the search (search-view.ts) and the slice (products-slice.ts) all use it.
 */
export function jsonAnswer({ body, cacheStatus, ageSeconds, freshForSeconds }: CacheEntry<unknown>): Answer {
  return { body, contentType: JSON_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds };
}
