import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgressiveList } from './use-progressive-list';

const SIZES = { chunk: 6, firstScreen: 3 };
const numbers = (count: number, from = 1) => Array.from({ length: count }, (_, index) => from + index);

function renderList(items: readonly number[], resetKey = 'a') {
  return renderHook((props: { items: readonly number[]; resetKey: string }) => useProgressiveList(props.items, SIZES, props.resetKey), {
    initialProps: { items, resetKey },
  });
}

/** Runs the next frame and what it queues: the frame that paints what was rendered. */
const afterNextPaint = () =>
  act(() => {
    vi.advanceTimersByTime(50);
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useProgressiveList', () => {
  it('mounts with the first chunk and grows a chunk at a time', () => {
    const { result } = renderList(numbers(20));
    expect(result.current.shown).toEqual(numbers(6));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.showMore());
    expect(result.current.shown).toEqual(numbers(12));
  });

  it('shows the first screen of a new key, then completes its chunk once that screen is painted', () => {
    const { result, rerender } = renderList(numbers(20));
    act(() => result.current.showMore());
    rerender({ items: numbers(20, 101), resetKey: 'b' });
    expect(result.current.shown).toEqual(numbers(3, 101));
    afterNextPaint();
    expect(result.current.shown).toEqual(numbers(6, 101));
    expect(result.current.hasMore).toBe(true);
  });

  it('keeps what was shown when the items change under the same key (a refetch)', () => {
    const { result, rerender } = renderList(numbers(20));
    act(() => result.current.showMore());
    rerender({ items: numbers(20, 101), resetKey: 'a' });
    expect(result.current.shown).toEqual(numbers(12, 101));
  });

  it('shows a short list whole, with nothing more to show', () => {
    const { result, rerender } = renderList(numbers(2));
    expect(result.current.shown).toEqual(numbers(2));
    expect(result.current.hasMore).toBe(false);
    rerender({ items: numbers(2, 101), resetKey: 'b' });
    expect(result.current.shown).toEqual(numbers(2, 101));
  });
});
