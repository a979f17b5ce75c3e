import { describe, expect, it } from 'vitest';
import { apiErrorSchema, categoryNamesSchema, productSchema, publicProductSchema } from './product.js';

const RATED = {
  id: 1,
  title: 'Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops',
  price: 109.95,
  description: 'Your perfect pack for everyday use and walks in the forest.',
  category: "men's clothing",
  image: 'https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_.jpg',
  rating: { rate: 3.9, count: 120 },
};

describe('productSchema: what the server accepts from its sources', () => {
  it('keeps a product as the upstream sends it', () => {
    expect(productSchema.parse(RATED)).toEqual(RATED);
  });

  it('accepts a product without a rating, and keeps it without one', () => {
    const { rating: _rating, ...unrated } = RATED;
    const parsed = productSchema.parse(unrated);
    expect(parsed).toEqual(unrated);
    expect('rating' in parsed).toBe(false);
  });

  it('accepts any title, description and category: long, empty, hostile, any script', () => {
    const messy = {
      ...RATED,
      title: `${'Very long title '.repeat(2_000)}🏕️`,
      description: '',
      category: `<script>alert('category')</script> 100% "kids"?#`,
    };
    expect(productSchema.parse(messy)).toEqual(messy);
  });

  it('drops fields it does not know, at every level', () => {
    const parsed = productSchema.parse({ ...RATED, internalCost: 12, rating: { ...RATED.rating, source: 'x' } });
    expect(parsed).toEqual(RATED);
  });

  it.each([
    ['a string id', { ...RATED, id: '1' }, 'id'],
    ['a negative id', { ...RATED, id: -1 }, 'id'],
    ['a fractional id', { ...RATED, id: 1.5 }, 'id'],
    ['an id past 2^53 − 1', { ...RATED, id: Number.MAX_SAFE_INTEGER + 2 }, 'id'],
    ['no title', { ...RATED, title: undefined }, 'title'],
    ['a null title', { ...RATED, title: null }, 'title'],
    ['a price in a string', { ...RATED, price: '109.95' }, 'price'],
    ['an infinite price', { ...RATED, price: Infinity }, 'price'],
    ['a NaN price', { ...RATED, price: NaN }, 'price'],
    ['no image', { ...RATED, image: undefined }, 'image'],
    ['a rating without a count', { ...RATED, rating: { rate: 4 } }, 'rating.count'],
    ['a rating of null', { ...RATED, rating: null }, 'rating'],
  ])('refuses a product with %s, naming the field', (_what, value, field) => {
    const result = productSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it.each([null, undefined, 'product', 42, [], [RATED], {}])('refuses the junk record %j', (junk) => {
    expect(productSchema.safeParse(junk).success).toBe(false);
  });
});

describe('publicProductSchema: what the API answers', () => {
  it('holds image to this origin’s image route', () => {
    expect(publicProductSchema.safeParse({ ...RATED, image: '/api/products/1/image' }).success).toBe(true);
    expect(publicProductSchema.safeParse(RATED).success).toBe(false);
    expect(publicProductSchema.safeParse({ ...RATED, image: '/api/products/1/image?w=320' }).success).toBe(false);
  });
});

describe('the other answers’ schemas', () => {
  it('an error has a message', () => {
    expect(apiErrorSchema.safeParse({ error: 'Product not found' }).success).toBe(true);
    expect(apiErrorSchema.safeParse({ error: '' }).success).toBe(false);
    expect(apiErrorSchema.safeParse({}).success).toBe(false);
  });

  it('category names are strings', () => {
    expect(categoryNamesSchema.safeParse(['jewelery', 'home & garden/outdoor 🏕️']).success).toBe(true);
    expect(categoryNamesSchema.safeParse([1]).success).toBe(false);
  });
});
