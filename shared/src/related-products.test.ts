import { describe, expect, it } from 'vitest';
import { RELATED_PRODUCTS, relatedProducts, relatedProductsQuery } from './related-products.js';

const shirts = Array.from({ length: 7 }, (_, index) => ({ id: index + 1, category: 'shirts' }));
const catalogue = [{ id: 20, category: 'hats' }, ...shirts, { id: 21, category: 'Shirts' }];

describe('relatedProducts', () => {
  it('keeps the first four others of the same category, in the order given, never the product itself', () => {
    expect(RELATED_PRODUCTS).toBe(4);
    expect(relatedProducts(catalogue, { id: 2, category: 'shirts' }).map(({ id }) => id)).toEqual([1, 3, 4, 5]);
    expect(relatedProducts(catalogue, { id: 7, category: 'shirts' }).map(({ id }) => id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps fewer when the category has fewer others, and none for its only product', () => {
    expect(relatedProducts(shirts.slice(0, 3), { id: 1, category: 'shirts' }).map(({ id }) => id)).toEqual([2, 3]);
    expect(relatedProducts(catalogue, { id: 20, category: 'hats' })).toEqual([]);
    expect(relatedProducts(catalogue, { id: 21, category: 'Shirts' })).toEqual([]);
  });
});

describe('relatedProductsQuery', () => {
  it("asks for the first page of the category's list in the catalogue's order", () => {
    expect(relatedProductsQuery('shirts')).toEqual({ search: '', category: 'shirts', sort: 'none', page: 1 });
  });
});
