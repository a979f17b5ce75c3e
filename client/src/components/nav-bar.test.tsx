import { act, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../testing/fixture-server';
import { renderApp } from '../testing/render-app';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

async function openMenu(path = '/') {
  const app = renderApp(path, { server });
  const button = screen.getByRole('button', { name: 'Open menu' });
  await app.user.click(button);
  return { ...app, button };
}

describe('top bar', () => {
  it('has Home and Products entries and a round logo linking home', async () => {
    renderApp('/products', { server });
    // jsdom matches no media query, so it shows the narrow layout: the wide bar's links are hidden there.
    const main = screen.getByLabelText('Main');
    expect(within(main).getByRole('link', { name: 'Home', hidden: true })).toHaveAttribute('href', '/');
    const products = within(main).getByRole('link', { name: 'Products', hidden: true });
    expect(products).toHaveAttribute('href', '/products');
    expect(products).toHaveAttribute('aria-current', 'page');
    const logo = screen.getByRole('img', { name: 'Company Logo' });
    expect(logo.closest('a')).toHaveAttribute('href', '/');
  });

  it('turns compact once the page is scrolled more than 10 px', () => {
    const { container } = renderApp('/', { server });
    const bar = () => container.querySelector('[data-compact]');
    expect(bar()).toHaveAttribute('data-compact', 'false');
    const scrollTo = (y: number) =>
      act(() => {
        Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
        window.dispatchEvent(new Event('scroll'));
      });
    scrollTo(10);
    expect(bar()).toHaveAttribute('data-compact', 'false');
    scrollTo(11);
    expect(bar()).toHaveAttribute('data-compact', 'true');
    scrollTo(0);
    expect(bar()).toHaveAttribute('data-compact', 'false');
  });
});

describe('hamburger menu', () => {
  it('toggles aria-expanded and its name', async () => {
    const { user, button } = await openMenu();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAccessibleName('Close menu');
    expect(button).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Menu' }).id);
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAccessibleName('Open menu');
  });

  it('moves focus into the menu when it opens', async () => {
    await openMenu();
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: 'Home' })).toHaveFocus();
  });

  it('closes on a press outside the menu panel and returns focus to the button', async () => {
    const { user, button } = await openMenu();
    await user.click(await screen.findByRole('heading', { level: 1, name: 'Products Gallery' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes on a press on another control, leaving focus there', async () => {
    const { user, button } = await openMenu();
    const toggle = screen.getByRole('button', { name: 'Switch to dark theme' });
    await user.click(toggle);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toHaveFocus();
  });

  it('stays open on a press inside the panel', async () => {
    const { user, button } = await openMenu();
    await user.click(screen.getByRole('navigation', { name: 'Menu' }));
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes on Escape and returns focus to the button', async () => {
    const { user, button } = await openMenu();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes when an entry is chosen, and goes there', async () => {
    const { user, button, router } = await openMenu('/');
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    await user.click(within(menu).getByRole('link', { name: 'Products' }));
    expect(router.location.pathname).toBe('/products');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(await screen.findByRole('heading', { level: 1, name: 'Our Products' })).toBeInTheDocument();
  });

  it('makes the page beneath inert while the menu is open', async () => {
    const { user, button } = await openMenu();
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');
    await user.click(button);
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('keeps the closed menu out of reach (inert, hidden)', () => {
    renderApp('/', { server });
    const button = screen.getByRole('button', { name: 'Open menu' });
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(menu).toHaveAttribute('inert');
    expect(menu).not.toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
  });
});

describe('theme toggle', () => {
  it('starts light and flips the dark class on <html>, saving the choice', async () => {
    const { user } = renderApp('/', { server });
    expect(document.documentElement).not.toHaveClass('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('restores a stored dark theme', () => {
    localStorage.setItem('theme', 'dark');
    renderApp('/', { server });
    expect(document.documentElement).toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
  });

  it.each(['DARK', 'night', '', 'true', '"dark"'])('treats the stored value %j as light', (stored) => {
    localStorage.setItem('theme', stored);
    renderApp('/', { server });
    expect(document.documentElement).not.toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Switch to dark theme' })).toBeInTheDocument();
  });
});
