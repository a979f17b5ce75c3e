import { describe, expect, it } from 'vitest';
import { slidesLoopedBefore } from './carousel-layout';

describe('slidesLoopedBefore', () => {
  // What Swiper 14 does at every breakpoint with the home's 6 products, seen in Chromium: it starts with the slides in
  // the order 5, 6, 1, 2, 3, 4 (e2e/layout-shift.spec.ts fails if the server's layout and Swiper's disagree).
  it('moves the last two of six slides in front of the first', () => {
    expect(slidesLoopedBefore(6)).toBe(2);
  });

  it('keeps a reserve of two on each side when there are slides enough, plus the one left of centre', () => {
    expect(slidesLoopedBefore(7)).toBe(3);
    expect(slidesLoopedBefore(20)).toBe(3);
  });

  it('moves at least the slide left of centre and one in reserve, however few slides there are', () => {
    expect(slidesLoopedBefore(5)).toBe(2);
    expect(slidesLoopedBefore(1)).toBe(2);
  });
});
