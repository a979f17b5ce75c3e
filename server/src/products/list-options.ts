import type { ListSelection } from '../catalogue/list/catalogue-queries.js';

/**
 * The Fake Store's list options, `?limit=N&sort=asc|desc`, on `/api/products` and `/api/products/category/{name}`
 * (docs/api.md, "Routes"): `sort` orders by id, then `limit` keeps the first N. Where the Fake Store is lax (it
 * ignores a bad limit, or answers nothing), this answers 400 with a message naming the parameter, so a typo
 * shows at once rather than as a surprising list.
 */

/**
 * The largest `limit` accepted: a bound keeps the parameter a count, and anything at or above the list's length
 * answers the whole list. (A large catalogue is read a page at a time through `/api/products/search`.)
 */
export const MAX_LIST_LIMIT = 10_000;

export const LIST_OPTIONS_ERRORS = {
  limit: `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`,
  limitRepeated: 'limit must be given at most once',
  sort: 'sort must be asc or desc',
  sortRepeated: 'sort must be given at most once',
} as const;

const DIGITS = /^[0-9]+$/;

/**
 * Reads `limit` and `sort` from a raw query string (what follows `?`, undecoded) into the selection of `category`'s
 * products ('': every category, as ListSelection spells it), in the list's own terms (catalogue/list/catalogue-queries.ts). Other parameters are
 * ignored. Returns the selection, or the message of a 400.
 */
export function parseListSelection(rawQuery: string, category: string): ListSelection | { error: string } {
  if (rawQuery === '') return { category, sort: null, limit: null };
  const params = new URLSearchParams(rawQuery);
  const limits = params.getAll('limit');
  const sorts = params.getAll('sort');
  if (limits.length > 1) return { error: LIST_OPTIONS_ERRORS.limitRepeated };
  if (sorts.length > 1) return { error: LIST_OPTIONS_ERRORS.sortRepeated };

  let limit: number | null = null;
  const [rawLimit] = limits;
  if (rawLimit !== undefined) {
    // Digits only: `-1`, `1.5`, `1e3`, ` 3`, `0x10` and an empty value are refused rather than half-read.
    limit = DIGITS.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIST_LIMIT)) return { error: LIST_OPTIONS_ERRORS.limit };
  }

  const [sort] = sorts;
  if (sort !== undefined && sort !== 'asc' && sort !== 'desc') return { error: LIST_OPTIONS_ERRORS.sort };
  return { category, sort: sort ?? null, limit };
}
