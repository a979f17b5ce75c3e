import styled from 'styled-components';
import { useHydrated } from '../hooks/use-hydrated';
import { toggleTheme } from '../lib/theme-mode';
import { visuallyHidden } from '../styles/global-style';
import { StyledIconButton } from './icon-button';

/**
 * Hidden, its place kept, until the app can respond to it: nothing in the bar moves when it appears. It holds the icon
 * and the name for both themes, and the `dark` class on <html> shows one of them: switching the theme changes that
 * class and renders nothing (docs/performance.md, "A slower phone").
 */
const StyledToggle = styled(StyledIconButton)<{ $ready: boolean }>`
  visibility: ${({ $ready }) => ($ready ? 'visible' : 'hidden')};

  [data-switches-to] {
    display: contents;
  }

  html:not(.dark) & [data-switches-to='light'],
  html.dark & [data-switches-to='dark'] {
    display: none;
  }
`;

const StyledName = styled.span`
  ${visuallyHidden}
`;

function SunIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 2v2.5M12 19.5V22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M2 12h2.5M19.5 12H22M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M20.5 14.2A8.5 8.5 0 0 1 9.8 3.5a8.5 8.5 0 1 0 10.7 10.7z" />
    </svg>
  );
}

/**
 * Named by the theme it switches to ('Switch to dark theme'), with that theme's icon. Only the app can switch and
 * store the theme, so before it runs (and without scripts) the button is neither shown nor announced (docs/pages.md,
 * "Before the app"); its name and icon are the stored theme's from the first paint, since the class chooses them.
 */
export function ThemeToggle() {
  const ready = useHydrated();
  return (
    <StyledToggle type="button" onClick={toggleTheme} $ready={ready}>
      <span data-switches-to="dark">
        <MoonIcon />
        <StyledName>Switch to dark theme</StyledName>
      </span>
      <span data-switches-to="light">
        <SunIcon />
        <StyledName>Switch to light theme</StyledName>
      </span>
    </StyledToggle>
  );
}
