import { useEffectEvent, useLayoutEffect } from 'react';

/**
 * The one way a control takes over what the visitor did to it in the server's page before the app took the page over
 * (docs/pages.md, "Before the app"): text typed in a box, a choice in a menu or a radio group, a popover opened.
 * React keeps what a control holds when it hydrates it, but the app's state started from the URL and its defaults.
 *
 * On mounting, in a layout effect (so before the app's first frame, focus and caret untouched), `read` reads what the
 * page holds from the DOM (`null`: nothing to read) and, when that differs from what the app rendered (`rendered`,
 * compared by `same`), hands it to `adopt`, once. Later renders never read the DOM again: from then on the app's state
 * is the control's.
 */
export function useAdoptedValue<T>(
  read: () => T | null,
  rendered: T,
  adopt: (held: T) => void,
  same: (a: T, b: T) => boolean = Object.is,
): void {
  const adoptHeld = useEffectEvent(() => {
    const held = read();
    if (held !== null && !same(held, rendered)) adopt(held);
  });
  useLayoutEffect(() => adoptHeld(), []);
}
