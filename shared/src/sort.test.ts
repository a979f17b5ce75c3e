import { describe, expect, it } from 'vitest';
import type { Product } from './product.js';
import { filterAndSortProducts, isSortOption, SORT_OPTIONS } from './sort.js';

function product(id: number, title: string, price: number, category = 'misc'): Product {
  return { id, title, price, description: '', category, image: '' };
}

const HOSTILE = `<script>alert('category')</script> 100% "kids"?#`;

const catalogue = [
  product(1, 'Blue Mug', 12, 'kitchen'),
  product(2, 'apple crate', 30),
  product(3, 'Red mug', 5.5, HOSTILE),
  product(4, 'Émile lamp', 30),
  product(5, 'Zebra rug', 99.99, HOSTILE),
];

const ids = (products: Product[]) => products.map((p) => p.id);

describe('filterAndSortProducts', () => {
  it('keeps the catalogue order when there is no search and no sort', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'none' }))).toEqual([1, 2, 3, 4, 5]);
  });

  it('matches a case-insensitive substring of the title', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: 'MUG', sort: 'none' }))).toEqual([1, 3]);
    expect(ids(filterAndSortProducts(catalogue, { search: 'ug', sort: 'none' }))).toEqual([1, 3, 5]);
  });

  it('ignores leading and trailing spaces in the search text', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '  mug ', sort: 'none' }))).toEqual([1, 3]);
  });

  it('returns nothing when no title matches', () => {
    expect(filterAndSortProducts(catalogue, { search: 'sofa', sort: 'nameAZ' })).toEqual([]);
  });

  it('sorts by price ascending, keeping catalogue order for ties', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'priceLowHigh' }))).toEqual([3, 1, 2, 4, 5]);
  });

  it('sorts by price descending, keeping catalogue order for ties', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'priceHighLow' }))).toEqual([5, 2, 4, 1, 3]);
  });

  it('sorts titles by locale order, not by code point', () => {
    // Code-point order would put 'Blue', 'Red', 'Zebra' before 'apple' and 'Émile' last.
    expect(ids(filterAndSortProducts(catalogue, { search: '', sort: 'nameAZ' }))).toEqual([2, 1, 4, 3, 5]);
  });

  it('filters first, then sorts', () => {
    expect(ids(filterAndSortProducts(catalogue, { search: 'mug', sort: 'priceLowHigh' }))).toEqual([3, 1]);
  });

  it('keeps only the exact category when one is given, and everything for an empty one', () => {
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE }))).toEqual([3, 5]);
    expect(ids(filterAndSortProducts(catalogue, { category: 'kitchen' }))).toEqual([1]);
    expect(ids(filterAndSortProducts(catalogue, { category: '' }))).toEqual([1, 2, 3, 4, 5]);
    expect(filterAndSortProducts(catalogue, { category: 'Kitchen' })).toEqual([]);
    expect(filterAndSortProducts(catalogue, { category: 'kitchen ' })).toEqual([]);
  });

  it('filters by category, then by text, then sorts', () => {
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE, search: 'u', sort: 'priceHighLow' }))).toEqual([5, 3]);
    expect(ids(filterAndSortProducts(catalogue, { category: HOSTILE, search: 'mug', sort: 'nameAZ' }))).toEqual([3]);
    expect(filterAndSortProducts(catalogue, { category: 'misc', search: 'mug' })).toEqual([]);
  });

  it('does not mutate its input', () => {
    const input = [...catalogue];
    filterAndSortProducts(input, { search: '', sort: 'priceHighLow' });
    expect(input).toEqual(catalogue);
  });
});

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
