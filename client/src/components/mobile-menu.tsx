import { useRef, type RefObject } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { useModalFocus } from '../hooks/use-modal-focus';
import { media, MENU_TRANSITION_MS } from '../styles/theme';
import { NAV_ENTRIES } from './nav-entries';

const StyledOverlay = styled.div<{ $open: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 1;
  background: ${({ theme }) => theme.colors.overlay};
  opacity: ${({ $open }) => ($open ? 1 : 0)};
  visibility: ${({ $open }) => ($open ? 'visible' : 'hidden')};
  /* Stay visible while sliding out, then hide so the closed menu is out of the tab order. */
  transition:
    opacity ${({ theme }) => theme.transition.menu},
    visibility 0s linear ${({ $open }) => ($open ? '0ms' : `${MENU_TRANSITION_MS}ms`)};

  ${media.lg} {
    display: none;
  }
`;

const StyledPanel = styled.nav<{ $open: boolean }>`
  position: absolute;
  inset: 0 0 0 auto;
  width: min(86vw, 380px);
  padding: calc(${({ theme }) => theme.layout.barHeight} + ${({ theme }) => theme.space.lg}) ${({ theme }) => theme.space.lg}
    ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.cardHover};
  transform: translateX(${({ $open }) => ($open ? '0' : '100%')});
  transition: transform ${({ theme }) => theme.transition.menu};

  ul {
    display: grid;
    gap: ${({ theme }) => theme.space.sm};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const StyledPanelLink = styled(NavLink)`
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
  id: string;
  open: boolean;
  onClose: () => void;
  /** The button that opens it: focus goes back there when the menu closes. */
  triggerRef: RefObject<HTMLElement | null>;
}

/**
 * The narrow screens' menu: a full-screen overlay with the entries in a panel sliding in from the right. It
 * closes on choosing an entry, a press outside the panel or Escape (see useModalFocus); closed, it is inert.
 */
export function MobileMenu({ id, open, onClose, triggerRef }: MobileMenuProps) {
  const panelRef = useRef<HTMLElement>(null);
  const close = useModalFocus({ open, panelRef, triggerRef, onClose });

  return (
    <StyledOverlay $open={open}>
      <StyledPanel id={id} ref={panelRef} aria-label="Menu" $open={open} inert={!open}>
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
