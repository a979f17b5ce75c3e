import { describe, expect, it } from 'vitest';
import { isSortOption, SORT_OPTIONS } from './sort.js';

describe('SORT_OPTIONS', () => {
  it('lists the options in the order and wording of docs/product.md', () => {
    expect(SORT_OPTIONS.map((o) => o.label)).toEqual(['Sort by...', 'Price: Low → High', 'Price: High → Low', 'Name: A → Z']);
  });

  it('recognises only its own values', () => {
    expect(isSortOption('nameAZ')).toBe(true);
    expect(isSortOption('price')).toBe(false);
    expect(isSortOption('__proto__')).toBe(false);
  });
});
