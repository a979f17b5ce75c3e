import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageVariantUrl, parseImageWidth } from './image-widths.js';

const parse = (search: string) => parseImageWidth(new URLSearchParams(search));

describe('image widths', () => {
  it('include the widths the README promises, in ascending order', () => {
    expect(IMAGE_WIDTHS).toEqual(expect.arrayContaining([160, 320, 480, 640, 960, 1280]));
    expect([...IMAGE_WIDTHS].sort((a, b) => a - b)).toEqual([...IMAGE_WIDTHS]);
  });

  it('reads each listed width, and no w as the original', () => {
    for (const width of IMAGE_WIDTHS) expect(parse(`w=${width}`)).toBe(width);
    expect(parse('')).toBeNull();
    expect(parse('other=1')).toBeNull();
  });

  it.each(['w=', 'w=321', 'w=0320', 'w=320.0', 'w=3e2', 'w=+320', 'w=%20320', 'w=abc', 'w=-320', 'w=320&w=320', 'w=320&w=640'])(
    'refuses %s',
    (search) => {
      expect(parse(search)).toBeUndefined();
    },
  );

  it('builds a variant URL on an image route', () => {
    expect(imageVariantUrl('/api/products/7/image', 480)).toBe('/api/products/7/image?w=480');
  });
});
