import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { runThemeInitScript } from '../testing/theme-init';
import { applyThemeClass, currentTheme, storeTheme, switchThemeClass, THEME_SWITCHING_ATTRIBUTE } from './theme-storage';

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

describe('switching the theme', () => {
  it('flips the class with every transition off for the frame that paints it, then turns them on again', async () => {
    applyThemeClass('light');
    const root = document.documentElement;
    switchThemeClass('dark');
    expect(currentTheme()).toBe('dark');
    expect(root).toHaveAttribute(THEME_SWITCHING_ATTRIBUTE);
    // Still there when the next frame is drawn…
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(root).toHaveAttribute(THEME_SWITCHING_ATTRIBUTE);
    // …and gone once it is.
    await waitFor(() => expect(root).not.toHaveAttribute(THEME_SWITCHING_ATTRIBUTE));
    switchThemeClass('light');
    expect(currentTheme()).toBe('light');
  });
});
