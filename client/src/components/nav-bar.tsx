import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import styled, { css } from 'styled-components';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { useAdoptedValue } from '../hooks/use-adopted-value';
import { useHydrated } from '../hooks/use-hydrated';
import { useMediaQuery } from '../hooks/use-media-query';
import { popoverShown } from '../hooks/use-popover';
import { useCompactMark } from '../hooks/use-compact-mark';
import { BREAKPOINTS, media } from '../styles/theme';
import { AppLink, AppNavLink } from './app-link';
import { StyledIconButton } from './icon-button';
import { MobileMenu } from './mobile-menu';
import { NAV_ENTRIES } from './nav-entries';
import { ThemeToggle } from './theme-toggle';

/** docs/product.md, "Navigation bar": the bar turns compact once the page is scrolled more than 10 px. */
const COMPACT_AFTER_PX = 10;

/**
 * `--bar-height`: the bar's height now, below which the open menu's panel and backdrop start. Compact while the bar
 * is marked so (useCompactMark): static rules, so turning compact adds no class and renders nothing.
 */
const StyledHeader = styled.header`
  --bar-height: ${({ theme }) => theme.layout.barHeight};
  position: fixed;
  inset: 0 0 auto 0;
  z-index: 100;

  &:has(> [data-compact='true']) {
    --bar-height: ${({ theme }) => theme.layout.barHeightCompact};
  }
`;

const StyledBar = styled.div`
  position: relative;
  z-index: 2;
  background: ${({ theme }) => theme.colors.barBackground};
  border-bottom: 1px solid transparent;
  transition:
    background-color ${({ theme }) => theme.transition.smooth},
    box-shadow ${({ theme }) => theme.transition.smooth};

  &[data-compact='true'] {
    background: ${({ theme }) => theme.colors.barBackgroundScrolled};
    backdrop-filter: saturate(180%) blur(14px);
    -webkit-backdrop-filter: saturate(180%) blur(14px);
    box-shadow: ${({ theme }) => theme.shadow.bar};
  }
`;

const StyledBarInner = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.lg};
  max-width: ${({ theme }) => theme.layout.maxWidth};
  height: var(--bar-height);
  margin: 0 auto;
  padding: 0 ${({ theme }) => theme.space.md};
  transition: height ${({ theme }) => theme.transition.smooth};

  ${media.sm} {
    padding: 0 ${({ theme }) => theme.space.lg};
  }
`;

const StyledLogoLink = styled(AppLink)`
  display: inline-flex;
  border-radius: 50%;
`;

/**
 * On a layer of its own: the bar's background changes with the theme and as it turns compact, and the SVG logo would
 * otherwise be drawn again each time (some 4 ms of a slowed phone's main thread in the theme switch's frame).
 */
const StyledLogo = styled.img`
  width: 60px;
  height: 60px;
  border-radius: 50%;
  will-change: transform;
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

const StyledDesktopLink = styled(AppNavLink)`
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

const crossed = css`
  span:nth-child(1) {
    transform: translateY(7px) rotate(45deg);
  }
  span:nth-child(2) {
    opacity: 0;
  }
  span:nth-child(3) {
    transform: translateY(-7px) rotate(-45deg);
  }
`;

/** Three bars that turn into an X while the menu is open: the app's or, before it, the popover's. */
const StyledMenuIcon = styled.span`
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

  [aria-expanded='true'] > & {
    ${crossed}
  }

  header:has(:popover-open) & {
    ${crossed}
  }
`;

/**
 * The fixed top bar: logo, the entries, the search (`search`, the catalogue's), the theme toggle and, below 1024 px, the hamburger button in place of
 * the entries, which opens the mobile menu. `onMenuOpenChange` tells the layout when the menu covers the page.
 *
 * The button opens the menu by itself (`popovertarget`) before the app runs and where scripts do not; the app then
 * takes the menu as it finds it (docs/pages.md, "Before the app"): open if the visitor opened it, focus left where it
 * is. From then on the app opens and closes it, and the button says which it does (`aria-expanded`).
 */
export function NavBar({ onMenuOpenChange, search }: { onMenuOpenChange: (open: boolean) => void; search?: ReactNode }) {
  const barRef = useRef<HTMLDivElement>(null);
  useCompactMark(barRef, COMPACT_AFTER_PX);
  const isLarge = useMediaQuery(`(min-width: ${BREAKPOINTS.lg}px)`);
  const hydrated = useHydrated();
  // 'adopted': found open at takeover; 'opened': opened by a press on the button since.
  const [menu, setMenu] = useState<'closed' | 'opened' | 'adopted'>('closed');
  // Growing the window past the breakpoint hides the overlay, so it must also stop counting as open.
  const menuOpen = menu !== 'closed' && !isLarge;
  const menuId = useId();
  const overlayId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const overlayRef = useRef<HTMLDivElement>(null);
  const closeMenu = useCallback(() => setMenu('closed'), []);
  // A menu the visitor opened before the app is theirs: kept open, focus left where it is.
  useAdoptedValue(
    () => popoverShown(overlayRef.current),
    menu !== 'closed',
    () => setMenu('adopted'),
  );
  useEffect(() => onMenuOpenChange(menuOpen), [menuOpen, onMenuOpenChange]);

  return (
    <StyledHeader>
      <StyledBar ref={barRef}>
        <StyledBarInner>
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
          {search}
          <StyledActions>
            <ThemeToggle />
            <StyledMenuButton
              ref={buttonRef}
              type="button"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              // Before the app the browser tells whether the popover is open; the app says it once it keeps the menu.
              aria-expanded={hydrated ? menuOpen : undefined}
              aria-controls={menuId}
              popoverTarget={overlayId}
              onClick={(event) => {
                // The app's own toggle, not the browser's as well.
                event.preventDefault();
                setMenu(menuOpen ? 'closed' : 'opened');
              }}
            >
              <StyledMenuIcon aria-hidden="true">
                <span />
                <span />
                <span />
              </StyledMenuIcon>
            </StyledMenuButton>
          </StyledActions>
        </StyledBarInner>
      </StyledBar>
      <MobileMenu
        id={menuId}
        overlayId={overlayId}
        overlayRef={overlayRef}
        open={menuOpen}
        moveFocus={menu === 'opened'}
        onClose={closeMenu}
        triggerRef={buttonRef}
      />
    </StyledHeader>
  );
}
