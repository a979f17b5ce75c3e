import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import styled, { css } from 'styled-components';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { useMediaQuery } from '../hooks/use-media-query';
import { useScrolledPast } from '../hooks/use-scrolled-past';
import { BREAKPOINTS, media, MENU_TRANSITION_MS } from '../styles/theme';
import { StyledIconButton } from './icon-button';
import { ThemeToggle } from './theme-toggle';

/** docs/product.md, "Navigation bar": the bar turns compact once the page is scrolled more than 10 px. */
const COMPACT_AFTER_PX = 10;

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

const NAV_ENTRIES = [
  { to: PAGE_PATHS.home, label: 'Home', end: true },
  { to: PAGE_PATHS.products, label: 'Products', end: false },
] as const;

const StyledHeader = styled.header`
  position: fixed;
  inset: 0 0 auto 0;
  z-index: 100;
`;

const StyledBar = styled.div<{ $compact: boolean }>`
  position: relative;
  z-index: 2;
  background: ${({ theme }) => theme.colors.barBackground};
  border-bottom: 1px solid transparent;
  transition:
    background-color ${({ theme }) => theme.transition.smooth},
    box-shadow ${({ theme }) => theme.transition.smooth};

  ${({ $compact, theme }) =>
    $compact &&
    css`
      background: ${theme.colors.barBackgroundScrolled};
      backdrop-filter: saturate(180%) blur(14px);
      -webkit-backdrop-filter: saturate(180%) blur(14px);
      box-shadow: ${theme.shadow.bar};
    `}
`;

const StyledBarInner = styled.div<{ $compact: boolean }>`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.lg};
  max-width: ${({ theme }) => theme.layout.maxWidth};
  height: ${({ $compact, theme }) => ($compact ? theme.layout.barHeightCompact : theme.layout.barHeight)};
  margin: 0 auto;
  padding: 0 ${({ theme }) => theme.space.md};
  transition: height ${({ theme }) => theme.transition.smooth};

  ${media.sm} {
    padding: 0 ${({ theme }) => theme.space.lg};
  }
`;

const StyledLogoLink = styled(Link)`
  display: inline-flex;
  border-radius: 50%;
`;

const StyledLogo = styled.img`
  width: 60px;
  height: 60px;
  border-radius: 50%;
`;

const StyledDesktopNav = styled.nav`
  display: none;

  ${media.lg} {
    display: block;
  }

  ul {
    display: flex;
    gap: ${({ theme }) => theme.space.sm};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const StyledDesktopLink = styled(NavLink)`
  position: relative;
  display: inline-block;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border-radius: ${({ theme }) => theme.radius.pill};
  font-weight: 600;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.textMuted};
  transition:
    color ${({ theme }) => theme.transition.quick},
    background-color ${({ theme }) => theme.transition.quick};

  &:hover {
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }

  &.active {
    color: ${({ theme }) => theme.colors.accentStrong};
    background: ${({ theme }) => theme.colors.badgeBackground};
  }
`;

const StyledActions = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  margin-left: auto;
`;

const StyledMenuButton = styled(StyledIconButton)`
  ${media.lg} {
    display: none;
  }
`;

/** Three bars that turn into an X while the menu is open. */
const StyledMenuIcon = styled.span<{ $open: boolean }>`
  display: grid;
  gap: 5px;

  span {
    display: block;
    width: 20px;
    height: 2px;
    border-radius: 2px;
    background: currentColor;
    transition:
      transform ${({ theme }) => theme.transition.menu},
      opacity ${({ theme }) => theme.transition.menu};
  }

  ${({ $open }) =>
    $open &&
    css`
      span:nth-child(1) {
        transform: translateY(7px) rotate(45deg);
      }
      span:nth-child(2) {
        opacity: 0;
      }
      span:nth-child(3) {
        transform: translateY(-7px) rotate(-45deg);
      }
    `}
`;

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

/**
 * The fixed top bar. Below 1024 px the entries move into a full-screen overlay behind a hamburger button; the
 * overlay closes on choosing an entry, a press outside its panel or Escape, and hands focus back to the button.
 */
export function NavBar() {
  const compact = useScrolledPast(COMPACT_AFTER_PX);
  const isLarge = useMediaQuery(`(min-width: ${BREAKPOINTS.lg}px)`);
  const [menuWanted, setMenuWanted] = useState(false);
  // Growing the window past the breakpoint hides the overlay, so it must also stop counting as open.
  const menuOpen = menuWanted && !isLarge;
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  const closeMenu = useCallback((restoreFocus: boolean) => {
    setMenuWanted(false);
    if (restoreFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    panelRef.current?.querySelector('a')?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMenu(true);
    };
    // 'click', not 'pointerdown': the press has moved focus by then, so handing it back to the button sticks.
    const onOutsideClick = (event: MouseEvent) => {
      const target = event.target as Element;
      // The button toggles by itself; reacting here too would reopen the menu on the same press.
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      // A press on another control (the theme toggle) keeps its focus; a press on the backdrop returns it.
      closeMenu(!target.closest(FOCUSABLE));
    };
    // While the overlay covers the page, the page beneath can neither scroll nor take focus.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    const page = document.querySelector('main');
    page?.setAttribute('inert', '');
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onOutsideClick);
    return () => {
      document.body.style.overflow = overflow;
      page?.removeAttribute('inert');
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onOutsideClick);
    };
  }, [menuOpen, closeMenu]);

  return (
    <StyledHeader>
      <StyledBar $compact={compact} data-compact={compact}>
        <StyledBarInner $compact={compact}>
          <StyledLogoLink to={PAGE_PATHS.home}>
            <StyledLogo src="/logo.svg" alt="Company Logo" width={60} height={60} />
          </StyledLogoLink>
          <StyledDesktopNav aria-label="Main">
            <ul>
              {NAV_ENTRIES.map((entry) => (
                <li key={entry.to}>
                  <StyledDesktopLink to={entry.to} end={entry.end}>
                    {entry.label}
                  </StyledDesktopLink>
                </li>
              ))}
            </ul>
          </StyledDesktopNav>
          <StyledActions>
            <ThemeToggle />
            <StyledMenuButton
              ref={buttonRef}
              type="button"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => (menuOpen ? closeMenu(false) : setMenuWanted(true))}
            >
              <StyledMenuIcon aria-hidden="true" $open={menuOpen}>
                <span />
                <span />
                <span />
              </StyledMenuIcon>
            </StyledMenuButton>
          </StyledActions>
        </StyledBarInner>
      </StyledBar>
      <StyledOverlay $open={menuOpen}>
        <StyledPanel id={menuId} ref={panelRef} aria-label="Menu" $open={menuOpen} inert={!menuOpen}>
          <ul>
            {NAV_ENTRIES.map((entry) => (
              <li key={entry.to}>
                <StyledPanelLink to={entry.to} end={entry.end} onClick={() => closeMenu(true)}>
                  {entry.label}
                </StyledPanelLink>
              </li>
            ))}
          </ul>
        </StyledPanel>
      </StyledOverlay>
    </StyledHeader>
  );
}
