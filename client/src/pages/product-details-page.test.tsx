import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { productKeys } from '../features/products/api/product-keys';
import { shouldRetry } from '../lib/query-client';
import { renderApp } from '../testing/render-app';
import { resetTestSite, startClientTestSite, type TestSite } from '../testing/test-site';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterEach(() => resetTestSite(site));
afterAll(() => site.close());

/** The production retry rule with a 1 ms delay, to count how often a failing request is asked. */
function retryingQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, retryDelay: 1, gcTime: Infinity } } });
}

const asked = (path: string) => site.apiRequests.filter((request) => request === path).length;

async function expectNotFoundMessage() {
  expect(await screen.findByRole('heading', { level: 1, name: 'Product not found' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
}

describe('product details page', () => {
  it('shows the product: image, title, description, category, price, stars with the rate', async () => {
    renderApp('/productdetails/2', { site });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mens Casual Premium Slim Fit T-Shirts' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Mens Casual Premium Slim Fit T-Shirts' })).toHaveAttribute(
      'src',
      '/api/products/2/image?w=640',
    );
    expect(
      screen.getByText('Slim-fitting style, contrast raglan long sleeve, three-button henley placket, light weight and soft fabric.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "men's clothing" })).toHaveAttribute('href', '/products?category=men%27s+clothing');
    expect(screen.getByText('$22.30')).toBeInTheDocument();
    const rating = screen.getByRole('img', { name: 'Rated 4.1 out of 5' });
    expect(rating).toHaveTextContent('4.1');
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    expect(document.title).toBe('Mens Casual Premium Slim Fit T-Shirts · Catalogue');
    // Then its related products, from its category's first page (RelatedProducts).
    await screen.findByRole('heading', { level: 2, name: 'Related products' });
    expect(site.apiRequests).toEqual(['/api/products/2', '/api/products/search']);
  });

  it('shows up to four other products of its category below it, as cards that open their product', async () => {
    const { user } = renderApp('/productdetails/2', { site });
    const related = await screen.findByRole('region', { name: 'Related products' });
    // The other three of "men's clothing", in catalogue order, each a card: photo, category badge, title, price.
    const cards = within(related).getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual(
      [1, 3, 4].map((id) => FIXTURE_PRODUCTS[id - 1]!.title),
    );
    for (const [index, id] of [1, 3, 4].entries()) {
      const card = cards[index]!;
      expect(within(card).getByRole('link', { name: FIXTURE_PRODUCTS[id - 1]!.title })).toHaveAttribute('href', `/productdetails/${id}`);
      expect(within(card).getByRole('link', { name: "men's clothing" })).toHaveAttribute('href', '/products?category=men%27s+clothing');
      // Below the product, never its largest paint: every photo lazy.
      expect(within(card).getByRole('img', { name: FIXTURE_PRODUCTS[id - 1]!.title })).toHaveAttribute('loading', 'lazy');
    }
    await user.click(within(cards[1]!).getByRole('link', { name: FIXTURE_PRODUCTS[2]!.title }));
    expect(await screen.findByRole('heading', { level: 1, name: FIXTURE_PRODUCTS[2]!.title })).toBeInTheDocument();
    // Product 3's related products: 1, 2 and 4, the product itself left out.
    const next = await screen.findByRole('region', { name: 'Related products' });
    await waitFor(() =>
      expect(
        within(next)
          .getAllByRole('heading', { level: 3 })
          .map((heading) => heading.textContent),
      ).toEqual([1, 2, 4].map((id) => FIXTURE_PRODUCTS[id - 1]!.title)),
    );
  });

  it('keeps four when the category has more, and shows none for the only product of its category', async () => {
    const shirts = FIXTURE_PRODUCTS.map((product) => ({ ...product, category: product.id === 7 ? 'one of a kind' : "men's clothing" }));
    site.upstream.setProducts(shirts);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
    renderApp('/productdetails/2', { site, queryClient });
    const related = await screen.findByRole('region', { name: 'Related products' });
    expect(
      within(related)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual([1, 3, 4, 5].map((id) => FIXTURE_PRODUCTS[id - 1]!.title));
    cleanup();
    renderApp('/productdetails/7', { site, queryClient });
    expect(await screen.findByRole('heading', { level: 1, name: FIXTURE_PRODUCTS[6]!.title })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(productKeys.related(7, 'one of a kind'))?.status).toBe('success'));
    expect(queryClient.getQueryData(productKeys.related(7, 'one of a kind'))).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Related products' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Related products' })).not.toBeInTheDocument();
  });

  it("links its hostile category badge to that category's list, which shows the product", async () => {
    const { user, router } = renderApp('/productdetails/20', { site });
    const { category } = FIXTURE_PRODUCTS[19]!;
    await user.click(await screen.findByRole('link', { name: category }));
    expect(router.location.pathname).toBe('/products');
    expect(new URLSearchParams(router.location.search).get('category')).toBe(category);
    expect(await screen.findByRole('link', { name: FIXTURE_PRODUCTS[19]!.title })).toHaveAttribute('href', '/productdetails/20');
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(1);
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(category);
  });

  it('shows a rate of 0 when the product has no rating', async () => {
    renderApp('/productdetails/5', { site });
    expect(await screen.findByRole('img', { name: 'Rated 0.0 out of 5' })).toHaveTextContent('0.0');
  });

  it('shows the spinner while the product loads', async () => {
    renderApp('/productdetails/1', { site });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await screen.findByRole('heading', { level: 1, name: 'Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops' });
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it.each(['abc', '1.5', '-1', '1e3', '%201'])('says "Invalid Product ID" for %j and makes no request', async (id) => {
    renderApp(`/productdetails/${id}`, { site, queryClient: retryingQueryClient() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Product ID' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(site.apiRequests).toEqual([]);
  });

  it('says "Product not found" for an unknown id at once, without retrying the 404', async () => {
    renderApp('/productdetails/999', { site, queryClient: retryingQueryClient() });
    await expectNotFoundMessage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked('/api/products/999')).toBe(1);
    expect(document.title).toBe('Product not found · Catalogue');
  });

  it.each([
    ['null', 'null'],
    ['an object without an id', '{"title":"Ghost"}'],
  ])('treats an upstream answer of %s as "Product not found", without retrying', async (_label, body) => {
    site.upstream.override('/products/3', { status: 200, body });
    renderApp('/productdetails/3', { site, queryClient: retryingQueryClient() });
    await expectNotFoundMessage();
    expect(asked('/api/products/3')).toBe(1);
  });

  it('retries a 5xx three times before saying "Product not found"', async () => {
    site.upstream.override('/products/3', 'status500');
    renderApp('/productdetails/3', { site, queryClient: retryingQueryClient() });
    await expectNotFoundMessage();
    expect(asked('/api/products/3')).toBe(4);
  });

  it('shows the product when a retry after a 5xx succeeds', async () => {
    site.upstream.override('/products/3', 'status500', { times: 1 });
    renderApp('/productdetails/3', { site, queryClient: retryingQueryClient() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mens Cotton Jacket' })).toBeInTheDocument();
    expect(asked('/api/products/3')).toBe(2);
  });
});
