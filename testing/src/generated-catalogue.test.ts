import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateCatalogue, LARGE_CATALOGUE_SIZE, largeCatalogue } from './generated-catalogue.js';

describe('generateCatalogue', () => {
  it('gives the same catalogue for the same count and seed, another for another seed', () => {
    expect(generateCatalogue(50)).toEqual(generateCatalogue(50));
    expect(generateCatalogue(50, 7)).not.toEqual(generateCatalogue(50));
  });

  it('is the very catalogue the README figures were measured with (a changed generator changes every figure)', () => {
    const digest = (count: number) =>
      createHash('sha256')
        .update(JSON.stringify(generateCatalogue(count)))
        .digest('hex');
    expect(digest(1000)).toBe('6e51e1d89090726c5b193064329fd260da40d9c363599e265a1ca3fa20d88f6c');
    expect(digest(5000)).toBe('cb208bc26cc9ecdafc50d15175a140f3aa537eacf4a7a42711045da20cc2b96a');
  });

  it('makes Fake-Store-shaped products of realistic sizes, each title distinct', () => {
    const products = generateCatalogue(1000);
    expect(products.map((product) => product.id)).toEqual(Array.from({ length: 1000 }, (_, index) => index + 1));
    expect(new Set(products.map((product) => product.title)).size).toBe(1000);
    expect(new Set(products.map((product) => product.category)).size).toBe(4);
    for (const product of products) {
      expect(product.title.length).toBeGreaterThanOrEqual(55);
      expect(product.title.length).toBeLessThan(80);
      expect(product.description.length).toBeGreaterThanOrEqual(296);
      expect(product.price).toBeGreaterThanOrEqual(5);
      expect(product.price).toBeLessThanOrEqual(1000);
      expect(Math.round(product.price * 100) / 100).toBe(product.price);
      expect(product.rating!.rate).toBeGreaterThanOrEqual(1);
      expect(product.rating!.rate).toBeLessThanOrEqual(5);
      expect(product.image).toBe(`/images/${product.id}.png`);
    }
  });

  it('generates the large catalogue once, every record its own (nothing repeated that would compress to nothing)', () => {
    const products = largeCatalogue();
    expect(largeCatalogue()).toBe(products);
    expect(products).toHaveLength(LARGE_CATALOGUE_SIZE);
    expect(new Set(products.map((product) => product.description)).size).toBe(LARGE_CATALOGUE_SIZE);
    expect(new Set(products.map((product) => product.title.replace(/ \d+$/, ''))).size).toBeGreaterThan(LARGE_CATALOGUE_SIZE * 0.99);
  });
});
