import { screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientTestSite, type TestSite } from '../testing/test-site';
import { renderApp } from '../testing/render-app';
import { runThemeInitScript } from '../testing/theme-init';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

describe('theme toggle', () => {
  it('starts light and flips the dark class on <html>, saving the choice', async () => {
    const { user } = renderApp('/', { site });
    expect(document.documentElement).not.toHaveClass('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('restores a stored dark theme (set by the pre-paint script before the app starts)', () => {
    localStorage.setItem('theme', 'dark');
    runThemeInitScript();
    renderApp('/', { site });
    expect(document.documentElement).toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
  });

  it.each(['DARK', 'night', '', 'true', '"dark"'])('treats the stored value %j as light', (stored) => {
    localStorage.setItem('theme', stored);
    runThemeInitScript();
    renderApp('/', { site });
    expect(document.documentElement).not.toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Switch to dark theme' })).toBeInTheDocument();
  });
});
