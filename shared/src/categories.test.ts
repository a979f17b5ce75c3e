import { describe, expect, it } from 'vitest';
import { categoriesOf, holdsCategory, productsInCategory } from './categories.js';

const catalogue = [
  { id: 1, category: "men's clothing" },
  { id: 2, category: 'home & garden/outdoor 🏕️' },
  { id: 3, category: "men's clothing" },
  { id: 4, category: 'Electronics' },
  { id: 5, category: 'electronics' },
];

describe('categoriesOf', () => {
  it('names each category once, in the order it first appears', () => {
    expect(categoriesOf(catalogue)).toEqual(["men's clothing", 'home & garden/outdoor 🏕️', 'Electronics', 'electronics']);
  });

  it('has none for an empty catalogue', () => {
    expect(categoriesOf([])).toEqual([]);
  });
});

describe('productsInCategory', () => {
  it('keeps the products of exactly that name, in catalogue order', () => {
    expect(productsInCategory(catalogue, "men's clothing").map(({ id }) => id)).toEqual([1, 3]);
    expect(productsInCategory(catalogue, 'electronics').map(({ id }) => id)).toEqual([5]);
    expect(productsInCategory(catalogue, 'home & garden/outdoor 🏕️').map(({ id }) => id)).toEqual([2]);
  });

  it('has none for an unknown name or a near miss', () => {
    expect(productsInCategory(catalogue, 'jewelery')).toEqual([]);
    expect(productsInCategory(catalogue, "men's clothing ")).toEqual([]);
    expect(productsInCategory(catalogue, '')).toEqual([]);
  });
});

describe('holdsCategory', () => {
  it('holds a category some product has, and every category (the empty name)', () => {
    expect(holdsCategory(catalogue, 'home & garden/outdoor 🏕️')).toBe(true);
    expect(holdsCategory(catalogue, '')).toBe(true);
    expect(holdsCategory([], '')).toBe(true);
  });

  it('does not hold an unknown name or a near miss', () => {
    expect(holdsCategory(catalogue, 'jewelery')).toBe(false);
    expect(holdsCategory(catalogue, 'ELECTRONICS')).toBe(false);
    expect(holdsCategory([], 'electronics')).toBe(false);
  });
});
