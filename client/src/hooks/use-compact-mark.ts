import { type RefObject, useLayoutEffect } from 'react';

/**
 * Marks `ref`'s element `data-compact="true"` while the page is scrolled more than `threshold` px, else `"false"`,
 * from the first layout (a page taken over where the visitor had scrolled it turns compact at once), for CSS to style.
 * The mark is set on the element itself, never through React's state: a scroll that crosses the threshold then costs
 * one attribute and the bar's own style, not a render of the bar and a new styled-components class, which would hold
 * the main thread just as a press lands (docs/performance.md, "A slower phone"). The server's HTML has no mark: it is
 * at its top, and the bar's styles are the roomy ones without it.
 */
export function useCompactMark(ref: RefObject<HTMLElement | null>, threshold: number): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    let marked: boolean | undefined;
    const mark = () => {
      const compact = window.scrollY > threshold;
      if (compact === marked) return;
      marked = compact;
      element.dataset.compact = String(compact);
    };
    mark();
    window.addEventListener('scroll', mark, { passive: true });
    return () => window.removeEventListener('scroll', mark);
  }, [ref, threshold]);
}
