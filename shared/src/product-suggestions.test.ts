import { describe, expect, it } from 'vitest';
import type { Product } from './product.js';
import { categoriesMatching, productSuggestions, SUGGESTED_PRODUCTS } from './product-suggestions.js';

const product = (id: number, title: string, category: string): Product => ({ id, title, price: 1, description: '', category, image: '' });

const CATALOGUE = Array.from({ length: 9 }, (_, index) =>
  product(index + 1, `Blue mug ${index + 1}`, index < 5 ? 'Kitchen' : 'mugs & cups'),
);
const CATEGORIES = ['Kitchen', 'mugs & cups', 'Garden'];

describe('productSuggestions', () => {
  it('suggests the first products whose titles hold the text, in catalogue order, and the categories whose names do', () => {
    const suggestions = productSuggestions(CATALOGUE, CATEGORIES, '  MUG ');
    expect(suggestions.products.map(({ id }) => id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(suggestions.products).toHaveLength(SUGGESTED_PRODUCTS);
    expect(suggestions.categories).toEqual(['mugs & cups']);
    expect(productSuggestions(CATALOGUE, CATEGORIES, 'mug 9').products.map(({ id }) => id)).toEqual([9]);
  });

  it('suggests nothing for a blank text', () => {
    expect(productSuggestions(CATALOGUE, CATEGORIES, '  ')).toEqual({ products: [], categories: [] });
    expect(categoriesMatching(CATEGORIES, '')).toEqual([]);
    expect(categoriesMatching(CATEGORIES, 'EN')).toEqual(['Kitchen', 'Garden']);
  });
});
