import { describe, expect, it } from 'vitest';
import { productsInCategoryPath } from './routes.js';

describe('productsInCategoryPath', () => {
  it.each([
    ["men's clothing", '/products?category=men%27s+clothing'],
    ['home & garden/outdoor 🏕️', '/products?category=home+%26+garden%2Foutdoor+%F0%9F%8F%95%EF%B8%8F'],
    [
      `<script>alert('category')</script> 100% "kids"?#`,
      '/products?category=%3Cscript%3Ealert%28%27category%27%29%3C%2Fscript%3E+100%25+%22kids%22%3F%23',
    ],
  ])('links %s so that it reads back intact', (name, path) => {
    expect(productsInCategoryPath(name)).toBe(path);
    expect(new URL(path, 'http://localhost').searchParams.get('category')).toBe(name);
  });
});
