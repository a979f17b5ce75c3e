import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS } from '@catalogue/shared/image-widths';
import type { ProductPhotoLayout } from '@catalogue/shared/product-photo';
import { ThemeModeProvider } from '../../../lib/theme-mode';
import { ProductImage } from './product-image';

function photo(layout: ProductPhotoLayout, priority?: boolean) {
  render(
    <ThemeModeProvider>
      <ProductImage src="/api/products/7/image" alt="A backpack" layout={layout} priority={priority} />
    </ThemeModeProvider>,
  );
  return screen.getByRole('img', { name: 'A backpack' });
}

describe('ProductImage', () => {
  it('offers every variant width in srcset, and a mid-size variant to browsers without it', () => {
    const image = photo('grid');
    expect(image.getAttribute('srcset')?.split(', ')).toEqual(IMAGE_WIDTHS.map((width) => `/api/products/7/image?w=${width} ${width}w`));
    expect(image).toHaveAttribute('src', '/api/products/7/image?w=640');
  });

  it.each([
    [
      'grid',
      '(min-width: 1200px) 204px, (min-width: 1024px) calc(25vw - 96px), (min-width: 768px) calc(33.33vw - 98px), (min-width: 640px) calc(50vw - 102px), calc(100vw - 98px)',
    ],
    [
      'carousel',
      '(min-width: 1200px) 286px, (min-width: 1024px) calc(33.33vw - 114px), (min-width: 640px) calc(50vw - 120px), calc(83.33vw - 119px)',
    ],
    [
      'detail',
      '(min-width: 1200px) 420px, (min-width: 768px) calc(45.45vw - 125px), (min-width: 640px) calc(100vw - 130px), calc(100vw - 114px)',
    ],
  ] as const)('describes the %s layout’s drawn width in sizes', (layout, sizes) => {
    expect(photo(layout)).toHaveAttribute('sizes', sizes);
  });

  it('reserves a square with width and height', () => {
    const image = photo('detail');
    expect(image).toHaveAttribute('width', '400');
    expect(image).toHaveAttribute('height', '400');
  });

  it('loads a priority photo at once and first, and any other lazily', () => {
    const priority = photo('detail', true);
    expect(priority).toHaveAttribute('loading', 'eager');
    expect(priority).toHaveAttribute('fetchpriority', 'high');
    priority.remove();

    const other = photo('grid');
    expect(other).toHaveAttribute('loading', 'lazy');
    expect(other).not.toHaveAttribute('fetchpriority');
  });
});
