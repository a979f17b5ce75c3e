import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import styled, { css } from 'styled-components';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { useMediaQuery } from '../hooks/use-media-query';
import { useScrolledPast } from '../hooks/use-scrolled-past';
import { BREAKPOINTS, media } from '../styles/theme';
import { StyledIconButton } from './icon-button';
import { MobileMenu } from './mobile-menu';
import { NAV_ENTRIES } from './nav-entries';
import { ThemeToggle } from './theme-toggle';

/** docs/product.md, "Navigation bar": the bar turns compact once the page is scrolled more than 10 px. */
const COMPACT_AFTER_PX = 10;

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

/**
 * The fixed top bar: logo, the entries, the theme toggle and, below 1024 px, the hamburger button in place of
 * the entries, which opens the mobile menu. `onMenuOpenChange` tells the layout when the menu covers the page.
 */
export function NavBar({ onMenuOpenChange }: { onMenuOpenChange: (open: boolean) => void }) {
  const compact = useScrolledPast(COMPACT_AFTER_PX);
  const isLarge = useMediaQuery(`(min-width: ${BREAKPOINTS.lg}px)`);
  const [menuWanted, setMenuWanted] = useState(false);
  // Growing the window past the breakpoint hides the overlay, so it must also stop counting as open.
  const menuOpen = menuWanted && !isLarge;
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenuWanted(false), []);

  useEffect(() => onMenuOpenChange(menuOpen), [menuOpen, onMenuOpenChange]);

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
              onClick={() => setMenuWanted(!menuOpen)}
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
      <MobileMenu id={menuId} open={menuOpen} onClose={closeMenu} triggerRef={buttonRef} />
    </StyledHeader>
  );
}
