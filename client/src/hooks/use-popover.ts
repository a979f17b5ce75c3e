import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * True when `element` is an open popover: one the visitor opened through its `popovertarget` button, with or
 * without the app. False where the browser has no Popover API.
 */
export function popoverShown(element: HTMLElement | null): boolean {
  return element !== null && typeof element.showPopover === 'function' && element.matches(':popover-open');
}

/**
 * Keeps the `popover` element `ref` shown exactly while `open`, and calls `onClosed` when the browser closes it on
 * its own (Escape, or its `popovertargetaction="hide"` button). Where the browser has no Popover API the app's state
 * alone shows it.
 */
export function usePopover(ref: RefObject<HTMLElement | null>, open: boolean, onClosed: () => void): void {
  // Only a change of `open`: on mounting, a popover the visitor opened before the app ran is theirs (the owner adopts
  // it, in an effect that runs after this one).
  const applied = useRef(open);
  // Before the paint: the panel must not show a frame outside the top layer.
  useLayoutEffect(() => {
    const element = ref.current;
    if (applied.current === open) return;
    applied.current = open;
    if (!element || typeof element.showPopover !== 'function' || popoverShown(element) === open) return;
    if (open) element.showPopover();
    else element.hidePopover();
  }, [ref, open]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onToggle = (event: Event) => {
      if ((event as ToggleEvent).newState === 'closed') onClosed();
    };
    element.addEventListener('toggle', onToggle);
    return () => element.removeEventListener('toggle', onToggle);
  }, [ref, onClosed]);
}
