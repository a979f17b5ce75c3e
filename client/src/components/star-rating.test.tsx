import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ThemeModeProvider } from '../lib/theme-mode';
import { StarRating, starFills } from './star-rating';

function stars(rate: number) {
  render(
    <ThemeModeProvider>
      <StarRating rate={rate} />
    </ThemeModeProvider>,
  );
  const image = screen.getByRole('img');
  const fills = [...image.querySelectorAll('[data-star]')].map((star) => star.getAttribute('data-star'));
  return { image, fills };
}

describe('StarRating', () => {
  it('is one image named with the rate to one decimal, with five stars inside', () => {
    const { image, fills } = stars(3.9);
    expect(image).toHaveAccessibleName('Rated 3.9 out of 5');
    expect(fills).toHaveLength(5);
  });

  it('rounds to the nearest half star: 3.9 shows 4 full stars', () => {
    expect(stars(3.9).fills).toEqual(['full', 'full', 'full', 'full', 'empty']);
  });

  it('shows a half star for 3.7 (3 full, 1 half, 1 empty)', () => {
    expect(stars(3.7).fills).toEqual(['full', 'full', 'full', 'half', 'empty']);
  });

  it('shows the numeric rate beside the stars', () => {
    const { image } = stars(4);
    expect(image).toHaveAccessibleName('Rated 4.0 out of 5');
    expect(image).toHaveTextContent('4.0');
  });

  it.each([
    [0, ['empty', 'empty', 'empty', 'empty', 'empty']],
    [0.5, ['half', 'empty', 'empty', 'empty', 'empty']],
    [0.2, ['empty', 'empty', 'empty', 'empty', 'empty']],
    [3.74, ['full', 'full', 'full', 'half', 'empty']],
    [3.75, ['full', 'full', 'full', 'full', 'empty']],
    [4, ['full', 'full', 'full', 'full', 'empty']],
    [5, ['full', 'full', 'full', 'full', 'full']],
    [7, ['full', 'full', 'full', 'full', 'full']],
    [-1, ['empty', 'empty', 'empty', 'empty', 'empty']],
  ])('fills %d as %j', (rate, expected) => {
    expect(starFills(rate)).toEqual(expected);
  });
});
