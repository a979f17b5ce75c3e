import { act, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientTestSite, type TestSite } from '../testing/test-site';
import { renderApp } from '../testing/render-app';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterAll(() => site.close());

describe('top bar', () => {
  it('has Home and Products entries and a round logo linking home', () => {
    renderApp('/products', { site });
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
    const { container } = renderApp('/', { site });
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
