import { describe, expect, it } from 'vitest';
import { runThemeInitScript } from '../testing/theme-init';
import { applyThemeClass, currentTheme, storeTheme } from './theme-storage';

// public/theme-init.js runs before the bundle and cannot import the rule, so it is held to it here.
describe('stored theme', () => {
  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['Dark', 'light'],
    ['1', 'light'],
    ['', 'light'],
  ])('the pre-paint script reads %j as %s', (stored, expected) => {
    localStorage.setItem('theme', stored);
    runThemeInitScript();
    expect(currentTheme()).toBe(expected);
  });

  it('reads nothing stored as light', () => {
    runThemeInitScript();
    expect(currentTheme()).toBe('light');
  });

  it.each(['dark', 'light'] as const)('reads back a stored %s choice on the next visit', (mode) => {
    storeTheme(mode);
    applyThemeClass('light');
    runThemeInitScript();
    expect(currentTheme()).toBe(mode);
  });
});
