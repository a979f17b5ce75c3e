import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { theme, type ThemeMode } from '../styles/theme';
import { currentTheme, storeTheme, switchThemeClass } from './theme-storage';

/** Feeds styled-components the one theme; its colours follow the `dark` class through CSS custom properties. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The server cannot know the visitor's theme: its HTML (and hydration) has the light theme's button. */
const serverTheme = (): ThemeMode => 'light';

/**
 * The visitor's theme and its switch. The page's colours are right from the first paint (CSS, switched by the class
 * the pre-paint script sets); the button names the stored theme as soon as the app has hydrated.
 */
export function useThemeMode(): { mode: ThemeMode; toggle: () => void } {
  const mode = useSyncExternalStore(subscribe, currentTheme, serverTheme);
  const toggle = useCallback(() => {
    const next = currentTheme() === 'dark' ? 'light' : 'dark';
    storeTheme(next);
    switchThemeClass(next);
    for (const listener of listeners) listener();
  }, []);
  return { mode, toggle };
}
