import type { ThemeMode } from '../styles/theme';

/**
 * The stored theme preference. public/theme-init.js applies the same rule before React loads (it cannot
 * import this module: the CSP allows no inline script, and it must run before the bundle); a test keeps the two
 * in step.
 */
const THEME_STORAGE_KEY = 'theme';
const DARK_CLASS = 'dark';

/** Anything other than 'dark' (missing, junk, storage blocked) means light. */
export function readStoredTheme(): ThemeMode {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
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
