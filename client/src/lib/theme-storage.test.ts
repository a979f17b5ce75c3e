import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readStoredTheme } from './theme-storage';

// public/theme-init.js runs before the bundle and cannot import the rule, so it is held to it here.
const initScript = readFileSync(join(import.meta.dirname, '../../public/theme-init.js'), 'utf8');
const runInitScript = (): void => {
  runInThisContext(initScript);
};

describe('stored theme', () => {
  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['Dark', 'light'],
    ['1', 'light'],
    ['', 'light'],
  ])('reads %j as %s, in the app and in the pre-paint script alike', (stored, expected) => {
    localStorage.setItem('theme', stored);
    expect(readStoredTheme()).toBe(expected);
    runInitScript();
    expect(document.documentElement.classList.contains('dark')).toBe(expected === 'dark');
  });

  it('reads nothing stored as light', () => {
    expect(readStoredTheme()).toBe('light');
    runInitScript();
    expect(document.documentElement).not.toHaveClass('dark');
  });
});
