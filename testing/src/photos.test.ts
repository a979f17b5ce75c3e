import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makePhoto, PHOTO_SIZES, photoSize, productPhoto } from './photos.js';

const KB = 1024;
/** Making all twenty photos is seconds of CPU on a busy two-core machine: this limit catches a hang, not slowness. */
const ALL_PHOTOS_TIMEOUT_MS = 60_000;

describe('photo-like JPEGs', () => {
  it(
    'are JPEGs of the listed sizes, 15–230 KB each, portrait and landscape among them',
    async () => {
      const photos = await Promise.all(PHOTO_SIZES.map((_, index) => productPhoto(index + 1)));
      for (const [index, photo] of photos.entries()) {
        const { format, width, height } = await sharp(photo).metadata();
        expect({ format, width, height }).toEqual({ format: 'jpeg', ...PHOTO_SIZES[index] });
        expect(photo.length).toBeGreaterThanOrEqual(15 * KB);
        expect(photo.length).toBeLessThanOrEqual(230 * KB);
      }
      expect(PHOTO_SIZES.some(({ width, height }) => height > width)).toBe(true);
      expect(PHOTO_SIZES.some(({ width, height }) => width > height)).toBe(true);
    },
    ALL_PHOTOS_TIMEOUT_MS,
  );

  it('are the same bytes for the same seed and size, and differ between seeds', async () => {
    const size = { width: 400, height: 500 };
    const first = await makePhoto({ ...size, seed: 7 });
    expect((await makePhoto({ ...size, seed: 7 })).equals(first)).toBe(true);
    expect((await makePhoto({ ...size, seed: 8 })).equals(first)).toBe(false);
  });

  it('cycle through the sizes for ids past the list', () => {
    expect(photoSize(PHOTO_SIZES.length + 1)).toEqual(photoSize(1));
  });
});
