import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { theme, type ThemeMode } from '../styles/theme';
import { applyThemeClass, readStoredTheme, storeTheme } from './theme-storage';

interface ThemeModeValue {
  mode: ThemeMode;
  toggle: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

/** Holds light/dark, keeps the `dark` class on <html> and the stored choice in step, and feeds styled-components. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(readStoredTheme);

  // Layout effect: the class must change in the same frame as the styled theme, or native controls flicker.
  useLayoutEffect(() => applyThemeClass(mode), [mode]);

  const toggle = useCallback(() => {
    const next = mode === 'dark' ? 'light' : 'dark';
    storeTheme(next);
    setMode(next);
  }, [mode]);

  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);

  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>{children}</ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used inside ThemeModeProvider');
  return value;
}
