import { useRef, type RefObject } from 'react';
import styled, { css } from 'styled-components';
import { useHydrated } from '../hooks/use-hydrated';
import { useModalFocus } from '../hooks/use-modal-focus';
import { usePopover } from '../hooks/use-popover';
import { media, MENU_TRANSITION_MS } from '../styles/theme';
import { AppNavLink } from './app-link';
import { NAV_ENTRIES } from './nav-entries';

/** The open menu's look: the backdrop shown, the panel slid in. */
const shown = css`
  opacity: 1;
  visibility: visible;
  transition-delay: 0ms;

  & > nav {
    transform: none;
  }
`;

/**
 * The whole screen, a `popover`: the browser opens and closes it by itself before the app runs and where scripts do
 * not, on top of everything else (the top layer). It stays laid out while closed, so it slides out as it slides in. Its dimmed backdrop starts below the bar, which stays in view with its button.
 */
const StyledOverlay = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1;
  width: auto;
  height: auto;
  max-width: none;
  max-height: none;
  margin: 0;
  padding: 0;
  overflow: visible;
  border: 0;
  color: inherit;
  background: linear-gradient(transparent var(--bar-height), ${({ theme }) => theme.colors.overlay} var(--bar-height));
  opacity: 0;
  visibility: hidden;
  /* Stay visible while sliding out, then hide so the closed menu is out of the tab order. */
  transition:
    opacity ${({ theme }) => theme.transition.menu},
    visibility 0s linear ${MENU_TRANSITION_MS}ms;

  &:popover-open {
    ${shown}
  }

  /* A browser without the Popover API: the app's state alone. */
  &[data-open='true'] {
    ${shown}
  }

  /* Laid out while closed too, against the user agent's [popover]:not(:popover-open) rule. The class is repeated to
     outweigh that rule where user-agent styles are weighed by specificity alone (jsdom, in the unit tests). */
  &&&& {
    display: block;
  }

  ${media.lg} {
    &&&& {
      display: none;
    }
  }
`;

/** A press beside the panel closes the menu, without the app too; a pointer's way out, kept out of the tab order. */
const StyledBackdrop = styled.button`
  position: absolute;
  inset: 0;
  width: 100%;
  padding: 0;
  border: 0;
  background: transparent;
  cursor: default;
`;

const StyledPanel = styled.nav`
  position: absolute;
  inset: var(--bar-height) 0 0 auto;
  width: min(86vw, 380px);
  padding: ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.cardHover};
  transform: translateX(100%);
  transition: transform ${({ theme }) => theme.transition.menu};

  ul {
    display: grid;
    gap: ${({ theme }) => theme.space.sm};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const StyledPanelLink = styled(AppNavLink)`
  display: block;
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  border-radius: ${({ theme }) => theme.radius.md};
  font-size: 1.375rem;
  font-weight: 700;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.text};

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }

  &.active {
    color: ${({ theme }) => theme.colors.accentStrong};
    background: ${({ theme }) => theme.colors.badgeBackground};
  }
`;

interface MobileMenuProps {
  /** The panel's id (the button's `aria-controls`). */
  id: string;
  /** The popover's id (the button's `popovertarget`). */
  overlayId: string;
  overlayRef: RefObject<HTMLDivElement | null>;
  open: boolean;
  /** Whether opening moves focus to the first entry (not when the app finds the menu already open). */
  moveFocus: boolean;
  onClose: () => void;
  /** The button that opens it: focus goes back there when the menu closes. */
  triggerRef: RefObject<HTMLElement | null>;
}

/**
 * The narrow screens' menu: a full-screen overlay with the entries in a panel sliding in from the right. It opens
 * and closes as a popover before the app runs (docs/pages.md, "Before the app"); the app then keeps it: it closes
 * on choosing an entry, a press outside the panel or Escape (see useModalFocus), and closed, it is inert.
 */
export function MobileMenu({ id, overlayId, overlayRef, open, moveFocus, onClose, triggerRef }: MobileMenuProps) {
  const panelRef = useRef<HTMLElement>(null);
  const hydrated = useHydrated();
  const close = useModalFocus({ open, moveFocus, panelRef, triggerRef, onClose });
  usePopover(overlayRef, open, onClose);

  return (
    <StyledOverlay id={overlayId} ref={overlayRef} popover="auto" data-open={open}>
      <StyledBackdrop type="button" popoverTarget={overlayId} popoverTargetAction="hide" tabIndex={-1} aria-hidden="true" />
      {/* Inert while closed once the app runs; before, the popover's own hiding keeps it out of reach. */}
      <StyledPanel id={id} ref={panelRef} aria-label="Menu" inert={hydrated && !open}>
        <ul>
          {NAV_ENTRIES.map((entry) => (
            <li key={entry.to}>
              <StyledPanelLink to={entry.to} end={entry.end} onClick={() => close(true)}>
                {entry.label}
              </StyledPanelLink>
            </li>
          ))}
        </ul>
      </StyledPanel>
    </StyledOverlay>
  );
}
