import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import type { Product } from '@catalogue/shared/product';
import { productImagePath } from '@catalogue/shared/routes';
import { PAGES } from './app/router';
import type { PageData } from '@catalogue/shared/page-render';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { render } from './entry-server';
import { hydrateQueryState } from './lib/query-client';

/** The catalogue as the server's API serves it: images on this origin. */
const PRODUCTS: Product[] = FIXTURE_PRODUCTS.map((product) => ({ ...product, image: productImagePath(product.id) }));
const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)> & \u2028';

/** The server's page: the rendered markup in #root, its styles in the head (what the server's template does). */
// (The browser's side of the same pages, hydration, is in hydration.test.tsx: it renders them in a Node process of its
// own, since React's server renderer leaves its context values behind for a browser renderer in the same realm.)
async function serverPage(url: string, data: PageData) {
  const result = await render({ url, route: readPageUrl(url).route, data });
  document.head.innerHTML = result.styles;
  document.body.innerHTML = `<div id="root">${result.html}</div>`;
  return { ...result, root: document.getElementById('root')! };
}

/** What a page's state block carries, as the browser's cache reads it. */
function cachedState(state: string) {
  const queryClient = new QueryClient();
  hydrateQueryState(queryClient, state);
  return queryClient.getQueryCache().getAll();
}

const headings = (level: number) => screen.queryAllByRole('heading', { level }).map((heading) => heading.textContent);

describe('render() on the server', () => {
  it('renders home with the first 6 products as carousel slides, and carries only the gallery', async () => {
    const { root, state, styles, preloads } = await serverPage('/', { products: PRODUCTS });
    expect(headings(1)).toEqual(['Products Gallery']);
    const slideTargets = within(root)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'))
      .filter((href) => href?.startsWith('/productdetails/'));
    expect(new Set(slideTargets)).toEqual(new Set(PRODUCTS.slice(0, 6).map((product) => `/productdetails/${product.id}`)));
    expect(screen.getByRole('link', { name: 'See More' })).toHaveAttribute('href', '/products');
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();

    const [gallery, ...others] = cachedState(state);
    expect(others).toEqual([]);
    expect(gallery?.queryKey).toEqual(['products', 'gallery']);
    expect(gallery?.state.data).toEqual(PRODUCTS.slice(0, 6));
    // The colours are custom properties, defined for both themes, so the markup is the same for every visitor.
    expect(styles).toContain('data-styled');
    expect(styles).toMatch(/:root\s*\{[^}]*--color-background:\s*#faf7f5/);
    expect(styles).toMatch(/html\.dark\s*\{[^}]*--color-background:\s*#111113/);
    // Nothing is built here, so there is no manifest to take preloads from.
    expect(preloads).toEqual([]);
  });

  it('lays the carousel out in its styles as Swiper will, and as a scrolling row for browsers without JavaScript', async () => {
    const { styles } = await serverPage('/', { products: PRODUCTS });
    // Until Swiper starts: 1.2, 2, 3 slides per view, 20 px apart, the last two slides first, the first one centred.
    // The last two are picked counting from the front (the 5th on of 6), which holds while the row is still arriving.
    expect(styles).toContain('.swiper:not(.swiper-initialized) .swiper-slide{width:calc((100% - 1.2 * 20px + 20px) / 1.2);');
    expect(styles).toMatch(/@media \(min-width: ?640px\)\{[^}]*width:calc\(\(100% - 2 \* 20px \+ 20px\) \/ 2\)/);
    expect(styles).toMatch(/@media \(min-width: ?1024px\)\{[^}]*width:calc\(\(100% - 3 \* 20px \+ 20px\) \/ 3\)/);
    expect(styles).toMatch(
      /\.swiper-slide:nth-child\(n \+ 5\)\{position:relative;left:calc\(-6 \* \(\(\(100% - 1\.2 \* 20px \+ 20px\) \/ 1\.2\) \+ 20px\)\);\}/,
    );
    expect(styles).not.toContain('nth-last-child');
    expect(styles).toMatch(/@media \(scripting: ?none\)\{[^}]*scroll-snap-type:x mandatory/);
  });

  it('renders /products with the search and sort of its URL, and carries the whole list', async () => {
    const { state } = await serverPage('/products?q=mens&sort=priceHighLow', { products: PRODUCTS });
    expect(headings(1)).toEqual(['Our Products']);
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('mens');
    expect(screen.getByRole('combobox', { name: 'Sort products' })).toHaveValue('priceHighLow');
    const expected = PRODUCTS.filter((product) => product.title.toLowerCase().includes('mens')).sort((a, b) => b.price - a.price);
    expect(headings(2)).toEqual(expected.map((product) => product.title));
    expect(screen.getByText(`${expected.length} of ${PRODUCTS.length} products`)).toBeInTheDocument();
    expect(cachedState(state).map((query) => [query.queryKey, query.state.data])).toEqual([[['products', 'list'], PRODUCTS]]);
  });

  it('renders the search, category and sort as a GET form of /products, with an Apply button for browsers without JavaScript', async () => {
    const { html } = await serverPage('/products?q=mens', { products: PRODUCTS });
    // The page's own form, not the bar's search (its own test: bar-search.test.tsx).
    const form = within(screen.getByRole('main')).getByRole('search');
    expect(form).toHaveAttribute('action', '/products');
    expect(form).toHaveAttribute('method', 'get');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveAttribute('name', 'q');
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveAttribute('name', 'category');
    expect(screen.getByRole('combobox', { name: 'Sort products' })).toHaveAttribute('name', 'sort');
    // Only where scripts do not run: a browser running the app never shows it.
    expect(html).toMatch(/<noscript><button[^>]*type="submit"[^>]*>Apply<\/button><\/noscript>/);
  });

  it('renders /products?category= with the hostile category chosen and its products only, as inert text', async () => {
    const { category } = PRODUCTS[19]!;
    const { html } = await serverPage(`/products?${new URLSearchParams({ category, sort: 'nameAZ' }).toString()}`, { products: PRODUCTS });
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(category);
    expect(headings(2)).toEqual([PRODUCTS[19]!.title]);
    expect(screen.getByText(`1 of ${PRODUCTS.length} products`)).toBeInTheDocument();
    expect(html).not.toContain('<script>');
    expect(document.querySelectorAll('script')).toHaveLength(0);
    const badge = within(screen.getByRole('listitem')).getByRole('link', { name: category });
    expect(new URL(badge.getAttribute('href')!, 'http://localhost').searchParams.get('category')).toBe(category);
  });

  it('renders a product page, and carries the product', async () => {
    const product = PRODUCTS[1]!;
    const { state } = await serverPage(`/productdetails/${product.id}`, { product });
    expect(headings(1)).toEqual([product.title]);
    expect(screen.getByText(product.description)).toBeInTheDocument();
    expect(screen.getByText('$22.30')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 4.1 out of 5' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    expect(cachedState(state).map((query) => [query.queryKey, query.state.data])).toEqual([[['products', 'detail', product.id], product]]);
  });

  it('renders a product page with its related products below it, as cards with lazy photos, and carries them', async () => {
    const product = PRODUCTS[1]!;
    const related = [PRODUCTS[0]!, PRODUCTS[2]!, PRODUCTS[3]!];
    const { root, state } = await serverPage(`/productdetails/${product.id}`, { product, related });
    const section = screen.getByRole('region', { name: 'Related products' });
    expect(within(section).getByRole('heading', { level: 2 })).toHaveTextContent('Related products');
    // After the product, each a card as the grid's: its title a link to its page, its category badge, its photo lazy.
    expect(root.querySelector('article')!.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const cards = within(section).getAllByRole('article');
    expect(cards).toHaveLength(3);
    related.forEach((other, index) => {
      const card = within(cards[index]!);
      expect(card.getByRole('heading', { level: 3 })).toHaveTextContent(other.title);
      expect(card.getByRole('link', { name: other.title })).toHaveAttribute('href', `/productdetails/${other.id}`);
      expect(card.getByRole('link', { name: other.category })).toHaveAttribute('href', '/products?category=men%27s+clothing');
      const photo = card.getByRole('img', { name: other.title });
      expect(photo).toHaveAttribute('loading', 'lazy');
      expect(photo).not.toHaveAttribute('fetchpriority');
    });
    expect(cachedState(state).map((query) => [query.queryKey, query.state.data])).toEqual([
      [['products', 'detail', product.id], product],
      [['products', 'related', { id: product.id, category: product.category }], related],
    ]);
  });

  it('renders no related products section for the only product of its category, and carries that there are none', async () => {
    const product = PRODUCTS[19]!;
    const { root, state } = await serverPage(`/productdetails/${product.id}`, { product, related: [] });
    expect(headings(1)).toEqual([product.title]);
    expect(screen.queryByRole('region', { name: 'Related products' })).not.toBeInTheDocument();
    expect(root.querySelectorAll('section, article')).toHaveLength(1);
    expect(cachedState(state)[1]?.state.data).toEqual([]);
  });

  it.each([
    ['not-found', 404],
    ['error', 503],
  ] as const)('renders "Product not found" for a product that is %s, and carries the failure', async (outcome, status) => {
    const { state } = await serverPage('/productdetails/7', { product: outcome });
    expect(headings(1)).toEqual(['Product not found']);
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    const [query] = cachedState(state);
    expect(query?.queryKey).toEqual(['products', 'detail', 7]);
    expect(query?.state).toMatchObject({ status: 'error', error: { status, message: 'Product not found' } });
  });

  it.each(['/', '/products'])('renders the load-failure alert on %s when the catalogue could not be had', async (url) => {
    const { state } = await serverPage(url, { products: 'error' });
    expect(screen.getByRole('alert')).toHaveTextContent('We couldn’t load the products. Please check your connection and try again.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    expect(cachedState(state)[0]?.state).toMatchObject({
      status: 'error',
      error: { status: 503, message: 'The product catalogue is unavailable right now' },
    });
  });

  it('renders "Invalid Product ID" for an id that is not a number, with nothing to carry', async () => {
    const { state } = await serverPage('/productdetails/1.5', {});
    expect(headings(1)).toEqual(['Invalid Product ID']);
    expect(cachedState(state)).toEqual([]);
  });

  it.each(['/no/such/page', '/products/1', '/productdetails'])('renders the not-found page for %s', async (url) => {
    const { state } = await serverPage(url, {});
    expect(headings(1)).toEqual(['Page Not Found']);
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Back Home' })).toHaveAttribute('href', '/');
    expect(cachedState(state)).toEqual([]);
  });

  it('keeps hostile upstream text as text in the markup; the state is plain JSON for the server to escape', async () => {
    const product = { ...PRODUCTS[0]!, title: HOSTILE, description: HOSTILE };
    const { html, state } = await serverPage(`/productdetails/${product.id}`, { product });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(headings(1)).toEqual([HOSTILE]);
    expect(JSON.parse(state)).toMatchObject({ queries: [{ state: { data: { title: HOSTILE } } }] });
  });

  it('sends a long list whole, with no script: every boundary is inline, as the Content-Security-Policy needs', async () => {
    const many = Array.from({ length: 600 }, (_, index) => ({ ...PRODUCTS[index % PRODUCTS.length]!, id: index + 1 }));
    const { html } = await serverPage('/products', { products: many });
    expect(html).not.toMatch(/<script|<template/);
    expect(screen.getByText('600 products')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('names each lazy chunk by its module’s path from the client’s root, as the build manifest does', () => {
    const chunks = Object.values(PAGES).flatMap((page) => page.chunks);
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(existsSync(join(import.meta.dirname, '..', chunk.modulePath)), chunk.modulePath).toBe(true);
  });

  it('renders the same markup for the same page whatever theme the visitor chose', async () => {
    const light = await render({ url: '/', route: { kind: 'home' }, data: { products: PRODUCTS } });
    localStorage.setItem('theme', 'dark');
    document.documentElement.classList.add('dark');
    const dark = await render({ url: '/', route: { kind: 'home' }, data: { products: PRODUCTS } });
    expect(dark.html).toBe(light.html);
    expect(dark.styles).toBe(light.styles);
  });
});
