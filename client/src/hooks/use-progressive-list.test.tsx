import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgressiveList } from './use-progressive-list';

const SIZES = { firstScreen: 3, chunk: 6 };
const numbers = (count: number, from = 1) => Array.from({ length: count }, (_, index) => from + index);

function renderList(items: readonly number[], resetKey = 'a') {
  return renderHook((props: { items: readonly number[]; resetKey: string }) => useProgressiveList(props.items, SIZES, props.resetKey), {
    initialProps: { items, resetKey },
  });
}

/** Runs the next frame and what it queues, i.e. lets the first screen be painted. */
const afterFirstPaint = () =>
  act(() => {
    vi.advanceTimersByTime(50);
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useProgressiveList', () => {
  it('shows the first screen of a new list, then completes the first chunk once that screen is painted', () => {
    const { result } = renderList(numbers(20));
    expect(result.current.shown).toEqual(numbers(3));
    afterFirstPaint();
    expect(result.current.shown).toEqual(numbers(6));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.showMore());
    expect(result.current.shown).toEqual(numbers(12));
  });

  it('starts a new key again at the first screen, and keeps the count for new items under the same key', () => {
    const { result, rerender } = renderList(numbers(20));
    afterFirstPaint();
    act(() => result.current.showMore());
    rerender({ items: numbers(20, 101), resetKey: 'a' });
    expect(result.current.shown).toEqual(numbers(12, 101));
    rerender({ items: numbers(20, 201), resetKey: 'b' });
    expect(result.current.shown).toEqual(numbers(3, 201));
    afterFirstPaint();
    expect(result.current.shown).toEqual(numbers(6, 201));
  });

  it('shows a list shorter than the first screen whole, with nothing more to show', () => {
    const { result } = renderList(numbers(2));
    expect(result.current.shown).toEqual(numbers(2));
    expect(result.current.hasMore).toBe(false);
  });
});
