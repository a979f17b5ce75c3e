import { startTransition, useCallback, useEffect, useState } from 'react';

/** How far below the viewport the sentinel starts the next chunk: it is rendered before the visitor gets there. */
const SENTINEL_MARGIN = '800px';

export interface ProgressiveList<T> {
  /** The items to render now. */
  shown: readonly T[];
  hasMore: boolean;
  /** Appends the next chunk (the "show more" button; the sentinel calls it too). */
  showMore: () => void;
  /** Put on an element just below the list: when it nears the viewport, the next chunk is appended. */
  sentinelRef: (element: HTMLElement | null) => void;
}

interface ProgressiveListSizes {
  /** Items the list shows when it mounts, and grows by each time after. */
  chunk: number;
  /** Items a changed list (a new `resetKey`) shows first: a screenful, so what the visitor looks at is painted first. */
  firstScreen: number;
}

/**
 * Renders a long list a piece at a time, so every paint costs a screenful or a chunk, not the whole list, while
 * every item stays reachable by scrolling. The list mounts with its first chunk; a
 * new `resetKey` (a new search or sort) shows its first screen, then completes the chunk right after that screen
 * is painted; further chunks follow as the visitor nears the end. New `items` with the same key (a background
 * refetch) keep what the visitor has scrolled to.
 */
export function useProgressiveList<T>(
  items: readonly T[],
  { firstScreen, chunk }: ProgressiveListSizes,
  resetKey: string,
): ProgressiveList<T> {
  const [state, setState] = useState({ resetKey, count: chunk });
  let count = state.count;
  if (state.resetKey !== resetKey) {
    // Adjusting state while rendering: the stale count is never committed, so the old list's length never flashes.
    count = firstScreen;
    setState({ resetKey, count });
  }
  const hasMore = count < items.length;
  const showMore = useCallback(() => setState((current) => ({ ...current, count: current.count + chunk })), [chunk]);

  const completingFirstChunk = hasMore && count < chunk;
  useEffect(() => {
    if (!completingFirstChunk) return;
    // The callback of the next frame runs before that frame is painted, a task it queues runs after: the rest of
    // the chunk is rendered once the first screen is on screen, in a render the next keystroke can interrupt.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setState((current) => ({ ...current, count: Math.max(current.count, chunk) }))));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
    // A new list waits for its own first paint, even when the one before it was still waiting for its own.
  }, [completingFirstChunk, resetKey, chunk]);

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
