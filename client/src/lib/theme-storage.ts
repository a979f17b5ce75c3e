import type { ThemeMode } from '../styles/theme';

/**
 * The visitor's theme is the `dark` class on <html>. public/theme-init.js sets it before the first paint from the
 * stored choice (only a stored 'dark' means dark; it cannot import this module: the CSP allows no inline script, and
 * it must run before the bundle), and the toggle flips it and stores the new choice. A test holds the script to the
 * key and values here.
 */
const THEME_STORAGE_KEY = 'theme';
const DARK_CLASS = 'dark';

export function currentTheme(): ThemeMode {
  return document.documentElement.classList.contains(DARK_CLASS) ? 'dark' : 'light';
}

export function storeTheme(mode: ThemeMode): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, mode);
  } catch {
    // Storage blocked (private mode, quota): the choice still holds for this visit.
  }
}

export function applyThemeClass(mode: ThemeMode): void {
  document.documentElement.classList.toggle(DARK_CLASS, mode === 'dark');
}
