import styled from 'styled-components';
import { useHydrated } from '../hooks/use-hydrated';
import { useThemeMode } from '../lib/theme-mode';
import { StyledIconButton } from './icon-button';

/** Hidden, its place kept, until the app can respond to it: nothing in the bar moves when it appears. */
const StyledToggle = styled(StyledIconButton)<{ $ready: boolean }>`
  visibility: ${({ $ready }) => ($ready ? 'visible' : 'hidden')};
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
 * Names the theme it switches to, and shows the icon of that theme. Only the app can switch and store the theme, so
 * before it runs (and without scripts) the button is neither shown nor announced (docs/pages.md, "Before the app").
 */
export function ThemeToggle() {
  const { mode, toggle } = useThemeMode();
  const ready = useHydrated();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <StyledToggle type="button" onClick={toggle} aria-label={`Switch to ${next} theme`} $ready={ready}>
      {next === 'dark' ? <MoonIcon /> : <SunIcon />}
    </StyledToggle>
  );
}
