import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { theme } from '../styles/theme';
import { currentTheme, storeTheme, switchThemeClass } from './theme-storage';

/** Feeds styled-components the one theme; its colours follow the `dark` class through CSS custom properties. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

/**
 * The theme button's press: the other theme, stored and shown. Nothing of the app renders for it: every colour, and
 * the button's own icon and name, follow the `dark` class in CSS, so the press's frame is the class's restyle alone.
 */
export function toggleTheme(): void {
  const next = currentTheme() === 'dark' ? 'light' : 'dark';
  storeTheme(next);
  switchThemeClass(next);
}
