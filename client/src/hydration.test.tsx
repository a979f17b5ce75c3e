import { spawn } from 'node:child_process';
import { text } from 'node:stream/consumers';
import { join } from 'node:path';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import type { Product } from '@catalogue/shared/product';
import type { ProductSearchPage } from '@catalogue/shared/product-paging';
import { categoriesOf } from '@catalogue/shared/categories';
import { productFacets } from '@catalogue/shared/product-filters';
import { API_PATHS, productImagePath } from '@catalogue/shared/routes';
import { startApp } from './app/start-app';
import type { RenderRequest, RenderResult } from '@catalogue/shared/page-render';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { relatedProducts } from '@catalogue/shared/related-products';

/**
 * The browser taking over the server's pages (docs/pages.md, "In the browser"). React's development build checks every
 * node, attribute and text against what the browser renders and reports a mismatch on the console, so each page is
 * hydrated here in both themes with the console watched. The pages are rendered the way the server renders them, in a
 * Node process of their own (testing/render-in-node.mjs): React's server renderer leaves its context values behind
 * for a browser renderer in the same realm. They are rendered one after the other in that one process, as a
 * long-running server renders them, and in another order than the tests hydrate them: what the server rendered
 * before must not change a page (styled-components' class names, for one, count components in creation order).
 */

const PRODUCTS: Product[] = FIXTURE_PRODUCTS.map((product) => ({ ...product, image: productImagePath(product.id) }));

const PAGES = {
  home: { url: '/', data: { products: PRODUCTS } },
  products: { url: '/products?q=mens&sort=nameAZ', data: { products: PRODUCTS } },
  category: { url: `/products?${new URLSearchParams({ category: PRODUCTS[19]!.category }).toString()}`, data: { products: PRODUCTS } },
  unknownCategory: { url: '/products?category=furniture', data: { products: PRODUCTS } },
  // The toolbar's GET form as a browser without scripts sends it: every field, the unset ones empty.
  formSent: { url: '/products?q=&category=&sort=nameAZ&minPrice=&maxPrice=&minRating=4', data: { products: PRODUCTS } },
  product: { url: '/productdetails/2', data: { product: PRODUCTS[1]!, related: relatedProducts(PRODUCTS, PRODUCTS[1]!) } },
  productNotFound: { url: '/productdetails/2', data: { product: 'not-found' } },
  productFailed: { url: '/productdetails/3', data: { product: 'error' } },
  catalogueFailed: { url: '/products', data: { products: 'error' } },
  invalidId: { url: '/productdetails/abc', data: {} },
  notFound: { url: '/no/such/page', data: {} },
} satisfies Record<string, Omit<RenderRequest, 'route'>>;

type PageName = keyof typeof PAGES;

async function renderInNode(requests: RenderRequest[]): Promise<RenderResult[]> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'testing', 'render-in-node.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify({ requests }));
  const [output, code] = await Promise.all([text(child.stdout), new Promise((resolve) => child.once('exit', resolve))]);
  if (code !== 0) throw new Error(`render-in-node.mjs exited with ${String(code)}`);
  return JSON.parse(output) as RenderResult[];
}

let rendered: Record<PageName, RenderResult>;
beforeAll(async () => {
  // In the reverse of the order the tests hydrate them: the server has rendered other pages before each one.
  const names = (Object.keys(PAGES) as PageName[]).reverse();
  // Each with the route the server resolves its URL to, as the server passes it.
  const results = await renderInNode(names.map((name) => ({ ...PAGES[name], route: readPageUrl(PAGES[name].url).route })));
  rendered = Object.fromEntries(names.map((name, index) => [name, results[index]!])) as Record<PageName, RenderResult>;
}, 60_000);

let root: Root | undefined;
let consoleProblems: unknown[][];
const requests: string[] = [];

beforeEach(() => {
  consoleProblems = [];
  const record = (...args: unknown[]) => void consoleProblems.push(args);
  vi.spyOn(console, 'error').mockImplementation(record);
  vi.spyOn(console, 'warn').mockImplementation(record);
  // A freshly hydrated page asks for nothing: every request is recorded (and answered from the catalogue).
  requests.length = 0;
  vi.stubGlobal('fetch', (input: string) => {
    requests.push(input);
    if (!input.startsWith(API_PATHS.search)) return Promise.resolve(Response.json(PRODUCTS));
    const facets = productFacets(PRODUCTS, { search: '', category: '' }, categoriesOf(PRODUCTS));
    const page: ProductSearchPage = {
      items: PRODUCTS,
      total: PRODUCTS.length,
      page: 1,
      pageSize: 24,
      catalogueSize: PRODUCTS.length,
      facets,
    };
    return Promise.resolve(Response.json(page));
  });
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

/**
 * Puts the server's page in the document as the server's template does, then starts the app on it (main.tsx);
 * `beforeApp` is what the visitor does in the server's page before that.
 */
async function hydrate(name: PageName, theme: 'light' | 'dark' = 'light', beforeApp?: () => Promise<void>) {
  const { url } = PAGES[name];
  const { html, styles, state } = rendered[name];
  // The app's own style sheet stays: in this one realm styled-components remembers the rules it wrote there for an
  // earlier page (the theme button's, once the app is in control) and would not write them again.
  const appSheet = document.head.querySelector('style[data-styled="active"]');
  document.head.innerHTML = styles;
  if (appSheet) document.head.prepend(appSheet);
  document.body.innerHTML = `<div id="root">${html}</div>`;
  // What theme-init.js does before the bundle runs.
  localStorage.setItem('theme', theme);
  document.documentElement.classList.toggle('dark', theme === 'dark');
  window.history.replaceState(null, '', url);
  await beforeApp?.();
  const serverHeading = screen.getByRole('heading', { level: 1 });
  const container = document.getElementById('root')!;
  await act(async () => {
    root = await startApp(container, state);
  });
  // The document title is set by an effect: once it is there, the page has hydrated.
  await waitFor(() => expect(document.title).not.toBe(''));
  return { serverHeading };
}

const headings = (level: number) => screen.queryAllByRole('heading', { level }).map((heading) => heading.textContent);

describe('hydrating a server-rendered page', () => {
  it.each(Object.keys(PAGES) as PageName[])('takes over %s as it is, in both themes: no mismatch, no request, no spinner', async (name) => {
    for (const theme of ['light', 'dark'] as const) {
      const { serverHeading } = await hydrate(name, theme);
      expect(consoleProblems).toEqual([]);
      // The app adopted the server's nodes instead of drawing the page again.
      expect(screen.getByRole('heading', { level: 1 })).toBe(serverHeading);
      expect(requests).toEqual([]);
      expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
      // The stored theme shows on the button once the app runs (the server cannot know it).
      await waitFor(() =>
        expect(screen.getByRole('button', { name: `Switch to ${theme === 'dark' ? 'light' : 'dark'} theme` })).toBeVisible(),
      );
      act(() => root?.unmount());
      root = undefined;
      document.title = '';
    }
  });

  it('behaves as the app afterwards: the search box filters at once, in the URL', async () => {
    await hydrate('products');
    const user = userEvent.setup();
    const search = screen.getByRole('searchbox', { name: 'Search products' });
    await user.clear(search);
    await user.type(search, 'jacket');
    const jackets = PRODUCTS.filter((product) => /jacket/i.test(product.title)).map((product) => product.title);
    // (The page's URL sorts by name.)
    await waitFor(() => expect(headings(2)).toEqual(jackets.sort((a, b) => a.localeCompare(b))));
    expect(new URLSearchParams(window.location.search).get('q')).toBe('jacket');
    expect(requests).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });

  it('shows a failure the server rendered without retrying it, and retries when asked', async () => {
    await hydrate('catalogueFailed');
    expect(screen.getByRole('alert')).toHaveTextContent('We couldn’t load the products.');
    expect(requests).toEqual([]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(headings(2)).toHaveLength(PRODUCTS.length));
    // The failed page could not tell the catalogue's size: its first page says it is small, so the list follows.
    expect(requests).toEqual([API_PATHS.search, API_PATHS.products]);
  });

  it('counts the server’s data as fresh: a page opened later uses it without asking again', async () => {
    await hydrate('product');
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Back to Products' }));
    // The list was not on the product page: its first page is asked for, which says the catalogue is small enough
    // to travel, so the whole list follows (docs/product.md, "Products").
    await waitFor(() => expect(headings(2)).toHaveLength(PRODUCTS.length));
    expect(new Set(requests)).toEqual(new Set([API_PATHS.search, API_PATHS.products]));
    const asked = requests.length;
    await user.click(screen.getByRole('link', { name: new RegExp(PRODUCTS[1]!.title) }));
    await waitFor(() => expect(headings(1)).toEqual([PRODUCTS[1]!.title]));
    expect(requests).toHaveLength(asked);
  });
});

describe('a page the visitor acted on before the app took it over (docs/pages.md, "Before the app")', () => {
  it('takes what the toolbar holds: the list follows it, the URL is replaced, focus and caret stay', async () => {
    const user = userEvent.setup();
    const entries = window.history.length;
    await hydrate('products', 'light', async () => {
      // The theme button needs the app: the server's page does not offer it.
      expect(screen.queryByRole('button', { name: /^Switch to/ })).not.toBeInTheDocument();
      const search = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search products' });
      await user.clear(search);
      await user.type(search, 'JaCkEt');
      await user.selectOptions(screen.getByRole('combobox', { name: 'Sort products' }), 'priceLowHigh');
      await user.click(search);
      search.setSelectionRange(2, 2);
    });
    const jackets = PRODUCTS.filter((product) => /jacket/i.test(product.title)).sort((a, b) => a.price - b.price);
    await waitFor(() => expect(headings(2)).toEqual(jackets.map((product) => product.title)));
    expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({ q: 'JaCkEt', sort: 'priceLowHigh' });
    expect(window.history.length).toBe(entries);
    const search = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search products' });
    expect(search).toHaveValue('JaCkEt');
    expect(search).toHaveFocus();
    expect([search.selectionStart, search.selectionEnd]).toEqual([2, 2]);
    expect(screen.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
    expect(requests).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });

  it('spells a URL the form was sent to without scripts as the app spells it: the unset fields dropped, the entry replaced', async () => {
    const entries = window.history.length;
    await hydrate('formSent');
    await waitFor(() => expect(window.location.search).toBe('?sort=nameAZ&minRating=4'));
    expect(window.history.length).toBe(entries);
    expect(screen.getByRole('radio', { name: /^4★ & up/ })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'From' })).toHaveValue('');
    expect(requests).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });

  it('changes nothing when the visitor did nothing', async () => {
    await hydrate('products');
    expect(window.location.search).toBe(PAGES.products.url.slice('/products'.length));
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('mens');
  });
});
