import { describe, expect, it } from 'vitest';
import type { ListSelection } from '../catalogue/caches/cached-catalogue.js';
import { LIST_OPTIONS_ERRORS, MAX_LIST_LIMIT, parseListSelection } from './list-options.js';

const parseListOptions = (query: string) => parseListSelection(query, 'jewelery');

describe('parseListSelection', () => {
  it.each<[string, Omit<ListSelection, 'category'>]>([
    ['', { sort: null, limit: null }],
    ['limit=3', { sort: null, limit: 3 }],
    ['limit=1', { sort: null, limit: 1 }],
    [`limit=${MAX_LIST_LIMIT}`, { sort: null, limit: MAX_LIST_LIMIT }],
    ['limit=007', { sort: null, limit: 7 }],
    ['sort=asc', { sort: 'asc', limit: null }],
    ['sort=desc&limit=2', { sort: 'desc', limit: 2 }],
    // Unknown parameters, and look-alikes of ours, are ignored.
    ['q=shirt&page=2&limit[]=5&Limit=-1&sort.x=1', { sort: null, limit: null }],
    ['__proto__[limit]=1&constructor=x&limit=4', { sort: null, limit: 4 }],
  ])('reads %j', (query, expected) => {
    expect(parseListOptions(query)).toEqual({ category: 'jewelery', ...expected });
  });

  it.each<[string, string]>([
    ['limit=0', LIST_OPTIONS_ERRORS.limit],
    ['limit=-1', LIST_OPTIONS_ERRORS.limit],
    ['limit=1.5', LIST_OPTIONS_ERRORS.limit],
    ['limit=1e3', LIST_OPTIONS_ERRORS.limit],
    ['limit=0x10', LIST_OPTIONS_ERRORS.limit],
    ['limit=+3', LIST_OPTIONS_ERRORS.limit],
    ['limit=%203', LIST_OPTIONS_ERRORS.limit],
    ['limit=3%00', LIST_OPTIONS_ERRORS.limit],
    ['limit=three', LIST_OPTIONS_ERRORS.limit],
    ['limit=', LIST_OPTIONS_ERRORS.limit],
    ['limit', LIST_OPTIONS_ERRORS.limit],
    ['limit=%E0%A4%A', LIST_OPTIONS_ERRORS.limit],
    ['limit=Infinity', LIST_OPTIONS_ERRORS.limit],
    ['limit=%EF%BC%93', LIST_OPTIONS_ERRORS.limit], // a full-width 3
    [`limit=${MAX_LIST_LIMIT + 1}`, LIST_OPTIONS_ERRORS.limit],
    [`limit=${'9'.repeat(400)}`, LIST_OPTIONS_ERRORS.limit],
    ['limit=3&limit=3', LIST_OPTIONS_ERRORS.limitRepeated],
    ['limit=3&limit=', LIST_OPTIONS_ERRORS.limitRepeated],
    ['sort=price', LIST_OPTIONS_ERRORS.sort],
    ['sort=DESC', LIST_OPTIONS_ERRORS.sort],
    ['sort=', LIST_OPTIONS_ERRORS.sort],
    ['sort', LIST_OPTIONS_ERRORS.sort],
    ['sort=asc%00', LIST_OPTIONS_ERRORS.sort],
    ['sort=asc&sort=desc', LIST_OPTIONS_ERRORS.sortRepeated],
    ['sort=asc&sort=asc', LIST_OPTIONS_ERRORS.sortRepeated],
  ])('refuses %j: %s', (query, error) => {
    expect(parseListOptions(query)).toEqual({ error });
  });

  it('names the parameter and what it accepts in every message', () => {
    expect(LIST_OPTIONS_ERRORS.limit).toBe('limit must be a whole number from 1 to 10000');
    expect(LIST_OPTIONS_ERRORS.sort).toBe('sort must be asc or desc');
    expect(LIST_OPTIONS_ERRORS.limitRepeated).toMatch(/^limit /);
    expect(LIST_OPTIONS_ERRORS.sortRepeated).toMatch(/^sort /);
  });
});
