import { Suspense, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { ErrorBoundary } from '../components/error-boundary';
import { NavBar } from '../components/nav-bar';
import { BarSearch } from '../features/products/components/bar-search';
import { Spinner } from '../components/spinner';
import { visuallyHidden } from '../styles/global-style';

const StyledSkipLink = styled.a`
  ${visuallyHidden}

  &:focus {
    position: fixed;
    top: ${({ theme }) => theme.space.sm};
    left: ${({ theme }) => theme.space.sm};
    z-index: 200;
    width: auto;
    height: auto;
    margin: 0;
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    clip: auto;
    border-radius: ${({ theme }) => theme.radius.sm};
    background: ${({ theme }) => theme.colors.accentStrong};
    color: ${({ theme }) => theme.colors.onAccent};
    font-weight: 700;
  }
`;

const StyledMain = styled.main`
  /* The bar is fixed: keep the page clear of its roomy height. */
  padding-top: ${({ theme }) => theme.layout.barHeight};
  min-height: 100vh;

  &:focus {
    outline: none;
  }
`;

/**
 * The shared page: fixed top bar, then the active route. Each page the visitor goes to opens scrolled to the top;
 * the page the app takes over stays where the visitor has scrolled it (docs/pages.md, "Before the app"). While the
 * mobile menu covers the page, the page is inert: it takes neither focus nor presses.
 */
export function Layout() {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  const shownPath = useRef(pathname);
  useLayoutEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <>
      <StyledSkipLink href="#main">Skip to content</StyledSkipLink>
      <NavBar onMenuOpenChange={setMenuOpen} search={<BarSearch />} />
      <StyledMain id="main" tabIndex={-1} inert={menuOpen}>
        {/* Keyed by path: after a page fails, following a link gives the next page a fresh start. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </StyledMain>
    </>
  );
}
