import { describe, expect, it } from 'vitest';
import { chooseVariantFormat } from './variant-format.js';

describe('the variant format', () => {
  it.each([
    // What Chromium, Firefox and Safari send for images.
    ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'avif'],
    ['image/avif,image/webp,*/*', 'avif'],
    [
      'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5',
      'avif',
    ],
    ['image/webp,*/*', 'webp'],
    ['IMAGE/WEBP', 'webp'],
    ['image/avif;q=0, image/webp;q=0.5', 'webp'],
    ['image/avif;q=0,image/webp;q=0', 'original'],
    ['image/avif; q=0.0', 'original'],
    ['image/*,*/*;q=0.8', 'original'],
    ['*/*', 'original'],
    ['', 'original'],
    [undefined, 'original'],
    ['image/avif;q=abc', 'original'],
    [';;,,,', 'original'],
  ] as const)('%j → %s', (accept, format) => {
    expect(chooseVariantFormat(accept)).toBe(format);
  });
});
