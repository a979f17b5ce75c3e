import { useCallback, useEffect, useState } from 'react';

/** How far below the viewport the sentinel starts the next chunk: it is rendered before the visitor gets there. */
const SENTINEL_MARGIN = '800px';

export interface ProgressiveList<T> {
  /** The first `chunk × n` items: what to render now. */
  shown: readonly T[];
  hasMore: boolean;
  /** Appends the next chunk (the "show more" button; the sentinel calls it too). */
  showMore: () => void;
  /** Put on an element just below the list: when it nears the viewport, the next chunk is appended. */
  sentinelRef: (element: HTMLElement | null) => void;
}

/**
 * Renders a long list a chunk at a time, so the first paint and every update cost one chunk, not the whole list,
 * while every item stays reachable by scrolling. A new `resetKey` (a new search or sort) starts again at the
 * first chunk; new `items` with the same key (a background refetch) keep what the visitor has scrolled to.
 */
export function useProgressiveList<T>(items: readonly T[], chunk: number, resetKey: string): ProgressiveList<T> {
  const [state, setState] = useState({ resetKey, count: chunk });
  let count = state.count;
  if (state.resetKey !== resetKey) {
    // Adjusting state while rendering: the stale count is never committed, so the old list's length never flashes.
    count = chunk;
    setState({ resetKey, count });
  }
  const hasMore = count < items.length;
  const showMore = useCallback(() => setState((current) => ({ ...current, count: current.count + chunk })), [chunk]);

  const [sentinel, setSentinel] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!sentinel || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && showMore(), {
      rootMargin: `0px 0px ${SENTINEL_MARGIN} 0px`,
    });
    // A fresh observer after every chunk reports at once: a chunk too short to push the sentinel out of range
    // (a tall screen, a zoomed-out page) is followed by the next one instead of waiting for a scroll.
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel, hasMore, count, showMore]);

  return { shown: hasMore ? items.slice(0, count) : items, hasMore, showMore, sentinelRef: setSentinel };
}
