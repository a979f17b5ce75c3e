import { describe, expect, it } from 'vitest';
import { formatPrice } from './format-price';

describe('formatPrice', () => {
  it.each([
    [22.3, '$22.30'],
    [109.95, '$109.95'],
    [7, '$7.00'],
    [1234.5, '$1,234.50'],
  ])('formats %d as %s', (price, text) => {
    expect(formatPrice(price)).toBe(text);
  });
});
