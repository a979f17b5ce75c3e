import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientTestSite, type TestSite } from '../testing/test-site';
import { renderApp } from '../testing/render-app';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

async function openMenu(path = '/') {
  const app = renderApp(path, { site });
  const button = screen.getByRole('button', { name: 'Open menu' });
  await app.user.click(button);
  return { ...app, button };
}

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

  it('keeps the closed menu out of reach (inert, hidden)', () => {
    renderApp('/', { site });
    const button = screen.getByRole('button', { name: 'Open menu' });
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(menu).toHaveAttribute('inert');
    expect(menu).not.toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
  });
});
