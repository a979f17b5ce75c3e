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

/** Set on <html> for the frame that switches the theme; styles/global-style.ts turns every transition off under it. */
export const THEME_SWITCHING_ATTRIBUTE = 'data-theme-switching';

/**
 * The toggle's switch: the class flipped with every transition off for the frame that paints it, then on again. Each
 * colour is a custom property on the root, so the flip restyles every element; with the transitions on, each one
 * whose colour, border or shadow transitions would also start an animation there, and repaint for the next 160–300 ms
 * (docs/performance.md, "A slower phone"). The transitions are back once that frame is drawn.
 */
export function switchThemeClass(mode: ThemeMode): void {
  const root = document.documentElement;
  root.setAttribute(THEME_SWITCHING_ATTRIBUTE, '');
  applyThemeClass(mode);
  requestAnimationFrame(() => setTimeout(() => root.removeAttribute(THEME_SWITCHING_ATTRIBUTE)));
}
