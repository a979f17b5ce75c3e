import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_CHARS, parseSearchQuery, SEARCH_QUERY_ERRORS } from './search-query.js';

describe('parseSearchQuery', () => {
  it('reads every parameter, each optional, and ignores the others', () => {
    expect(parseSearchQuery('')).toEqual({ search: '', category: '', sort: 'none', page: 1 });
    expect(parseSearchQuery('q=Gold+ring&category=men%27s%20clothing&sort=priceLowHigh&page=12&utm_source=x')).toEqual({
      search: 'Gold ring',
      category: "men's clothing",
      sort: 'priceLowHigh',
      page: 12,
    });
  });

  it.each([
    ['q=a&q=b', SEARCH_QUERY_ERRORS.repeated('q')],
    ['category=a&category=b', SEARCH_QUERY_ERRORS.repeated('category')],
    ['sort=nameAZ&sort=nameAZ', SEARCH_QUERY_ERRORS.repeated('sort')],
    ['page=1&page=2', SEARCH_QUERY_ERRORS.repeated('page')],
    [`q=${'a'.repeat(MAX_SEARCH_CHARS + 1)}`, SEARCH_QUERY_ERRORS.search],
    ['sort=asc', SEARCH_QUERY_ERRORS.sort],
    ['sort=', SEARCH_QUERY_ERRORS.sort],
    ['page=0', SEARCH_QUERY_ERRORS.page],
    ['page=', SEARCH_QUERY_ERRORS.page],
    ['page=01', SEARCH_QUERY_ERRORS.page],
    ['page=2.5', SEARCH_QUERY_ERRORS.page],
    ['page=1e3', SEARCH_QUERY_ERRORS.page],
    ['page=99999999', SEARCH_QUERY_ERRORS.page],
  ])('refuses %s with a message naming the parameter', (query, error) => {
    expect(parseSearchQuery(query)).toEqual({ error });
  });

  it('says which values are allowed', () => {
    expect(SEARCH_QUERY_ERRORS.sort).toBe('sort must be one of none, priceLowHigh, priceHighLow, nameAZ');
    expect(SEARCH_QUERY_ERRORS.page).toBe('page must be a whole number from 1 to 1000000');
  });
});
