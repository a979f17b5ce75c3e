import { act, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startClientTestSite, type TestSite } from '../testing/test-site';
import { renderApp } from '../testing/render-app';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

describe('layout', () => {
  it('puts every page in one <main> after a skip link', async () => {
    renderApp('/products', { site });
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    expect(await screen.findAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('makes the page beneath inert while the mobile menu is open', async () => {
    const { user } = renderApp('/', { site });
    const button = screen.getByRole('button', { name: 'Open menu' });
    await user.click(button);
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');
    await user.click(button);
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('opens each page scrolled to the top, but not on a change of search or sort, nor the page it starts on', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { router } = renderApp('/', { site });
    // The first page is where the visitor already is, maybe scrolled (docs/pages.md, "Before the app").
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => void router.navigate('/products'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    scrollTo.mockClear();
    act(() => void router.navigate('/products?sort=nameAZ'));
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => void router.navigate('/productdetails/1'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    scrollTo.mockRestore();
  });
});
