import { useCallback, useEffect, type RefObject } from 'react';

/** Controls a press lands on by choice; the menu's backdrop (a button out of the tab order) is not one. */
const FOCUSABLE = 'a[href], button:not([tabindex="-1"]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

interface ModalFocusOptions {
  open: boolean;
  /**
   * Whether opening moves focus into the panel: the visitor's press on the button does; a menu the app found open
   * when it took the page over does not, focus staying where the visitor left it.
   */
  moveFocus: boolean;
  /** The modal's own element: focus moves to its first link on opening, and presses inside it keep it open. */
  panelRef: RefObject<HTMLElement | null>;
  /** The control that opened it: focus returns there on closing, and its own press toggles it (not ours). */
  triggerRef: RefObject<HTMLElement | null>;
  /** Marks the modal closed; focus is this hook's business. */
  onClose: () => void;
}

/**
 * The focus rules of a modal panel opened by a button: on opening (by the visitor's press), focus moves into the panel and the page
 * beneath stops scrolling; Escape or a press on the backdrop closes it and hands focus back to the button; a
 * press on another control closes it and leaves focus on that control. Returns `close(restoreFocus)` for the
 * panel's own ways out (choosing an entry).
 */
export function useModalFocus({ open, moveFocus, panelRef, triggerRef, onClose }: ModalFocusOptions): (restoreFocus: boolean) => void {
  const close = useCallback(
    (restoreFocus: boolean) => {
      onClose();
      if (restoreFocus) triggerRef.current?.focus();
    },
    [onClose, triggerRef],
  );

  useEffect(() => {
    if (!open) return;
    if (moveFocus) panelRef.current?.querySelector('a')?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    // 'click', not 'pointerdown': the press has moved focus by then, so handing it back to the button sticks.
    const onOutsideClick = (event: MouseEvent) => {
      const target = event.target as Element;
      // The button toggles by itself; reacting here too would reopen the panel on the same press.
      if (panelRef.current?.contains(target) || triggerRef.current?.contains(target)) return;
      // A press on another control (the theme toggle) keeps its focus; a press on the backdrop returns it.
      close(!target.closest(FOCUSABLE));
    };
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onOutsideClick);
    return () => {
      document.body.style.overflow = overflow;
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onOutsideClick);
    };
  }, [open, moveFocus, panelRef, triggerRef, close]);

  return close;
}
