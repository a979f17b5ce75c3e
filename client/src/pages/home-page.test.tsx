import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Swiper as SwiperInstance } from 'swiper';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { shouldRetry } from '../lib/query-client';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { renderApp } from '../testing/render-app';
import { resetTestSite, startClientTestSite, type TestSite } from '../testing/test-site';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterEach(() => resetTestSite(site));

/**
 * Whether focus counts as the keyboard's (:focus-visible), as a browser decides it: jsdom guesses from recent
 * events in its own way, so each test says which kind its focus is.
 */
let focusVisible: boolean;
beforeEach(() => {
  focusVisible = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with .call(this, …)
  const matches = Element.prototype.matches;
  vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selectors: string) {
    return selectors === ':focus-visible' ? focusVisible && this === document.activeElement : matches.call(this, selectors);
  });
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => site.close());

function slideLinks() {
  return screen.getAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('/productdetails/'));
}

/** The live Swiper instance, to check how the carousel was configured and whether autoplay runs. */
function carousel(): SwiperInstance {
  const element = document.querySelector<HTMLElement & { swiper: SwiperInstance }>('.swiper');
  if (!element) throw new Error('no carousel rendered');
  return element.swiper;
}

async function openHome() {
  const app = renderApp('/', { site });
  await waitFor(() => expect(slideLinks()).toHaveLength(6));
  return app;
}

describe('home page', () => {
  it('shows the heading, a See More link and a title', async () => {
    await openHome();
    expect(screen.getByRole('heading', { level: 1, name: 'Products Gallery' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See More' })).toHaveAttribute('href', '/products');
    expect(document.title).toBe('Products Gallery · Catalogue');
  });

  it('shows the first 6 products as slides, each one link with image, title and dollar price', async () => {
    await openHome();
    const firstSix = FIXTURE_PRODUCTS.slice(0, 6);
    // Loop mode moves slides around the active one, so compare as a set; the first product starts centred.
    expect(
      slideLinks()
        .map((link) => link.getAttribute('href'))
        .sort(),
    ).toEqual(firstSix.map((product) => `/productdetails/${product.id}`).sort());
    const active = document.querySelector('.swiper-slide-active');
    expect(active && within(active as HTMLElement).getByRole('link')).toHaveAttribute('href', '/productdetails/1');
    const slide = screen.getByRole('link', { name: /Mens Casual Premium Slim Fit T-Shirts/ });
    expect(within(slide).getByRole('img', { name: 'Mens Casual Premium Slim Fit T-Shirts' })).toBeInTheDocument();
    expect(within(slide).getByText('$22.30')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Portable External Hard Drive/ })).not.toBeInTheDocument();
  });

  it('configures the carousel as docs/product.md says', async () => {
    await openHome();
    const { params } = carousel();
    expect(params.loop).toBe(true);
    expect(params.centeredSlides).toBe(true);
    expect(params.spaceBetween).toBe(20);
    expect(carousel().originalParams.slidesPerView).toBe(1.2);
    expect(params.breakpoints).toEqual({ 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } });
    expect(params.autoplay).toMatchObject({ delay: 2500, disableOnInteraction: false, pauseOnMouseEnter: true });
    expect(carousel().autoplay.running).toBe(true);
  });

  it('walks the slides by Tab in list order from the first product, with autoplay stopped meanwhile', async () => {
    const { user } = await openHome();
    act(() => screen.getByRole('main').focus());
    const walk: (string | null)[] = [];
    for (const _product of FIXTURE_PRODUCTS.slice(0, 6)) {
      await user.tab();
      walk.push(document.activeElement?.getAttribute('href') ?? null);
      expect(carousel().autoplay.running).toBe(false);
    }
    expect(walk).toEqual(FIXTURE_PRODUCTS.slice(0, 6).map((product) => `/productdetails/${product.id}`));
    // Shift+Tab from after the carousel, back over its pagination dots, enters at the last product.
    act(() => screen.getByRole('link', { name: 'See More' }).focus());
    expect(carousel().autoplay.running).toBe(true);
    for (const _dot of document.querySelectorAll('.swiper-pagination-bullet')) await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(document.activeElement).toHaveAttribute('href', `/productdetails/${FIXTURE_PRODUCTS[5]!.id}`);
    // The focused slide is centred on the next frame; let it run before unmounting.
    await act(() => new Promise(requestAnimationFrame));
  });

  it('stops autoplay while keyboard focus is inside the carousel and starts it when focus leaves', async () => {
    await openHome();
    const [first, second] = slideLinks();
    act(() => first?.focus());
    expect(carousel().autoplay.running).toBe(false);
    act(() => second?.focus());
    expect(carousel().autoplay.running).toBe(false);
    act(() => screen.getByRole('link', { name: 'See More' }).focus());
    expect(carousel().autoplay.running).toBe(true);
    await act(() => new Promise(requestAnimationFrame));
  });

  it('keeps autoplay running when a click focuses a pagination dot (it does not stop on interaction)', async () => {
    await openHome();
    focusVisible = false;
    const dot = document.querySelectorAll<HTMLElement>('.swiper-pagination-bullet')[3];
    act(() => dot?.focus());
    expect(document.activeElement).toBe(dot);
    expect(carousel().autoplay.running).toBe(true);
  });

  it('keeps the gallery and the list under separate cache keys, from one request', async () => {
    const { queryClient } = await openHome();
    expect(queryClient.getQueryData<unknown[]>(['products', 'gallery'])).toHaveLength(6);
    // The catalogue's first page is the whole of the Fake Store's 20 products: it is kept as the list too.
    expect(queryClient.getQueryData<unknown[]>(['products', 'list'])).toHaveLength(FIXTURE_PRODUCTS.length);
    expect(site.apiRequests).toEqual(['/api/products/search']);
  });

  it('asks a failing catalogue once plus the retries, not the retries of the gallery times those of the list', async () => {
    site.upstream.override('/products', 'status500');
    // The app's retry rule, without its waits.
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, retryDelay: 0, gcTime: Infinity } } });
    renderApp('/', { site, queryClient });
    await screen.findByRole('button', { name: 'Try again' });
    expect(site.apiRequests).toEqual(Array(4).fill('/api/products/search'));
  });

  it('offers "Try again" when the products cannot load', async () => {
    site.upstream.override('/products', 'status500', { times: 1 });
    const { user } = renderApp('/', { site });
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(slideLinks()).toHaveLength(6));
  });

  it('does not autoplay for visitors who prefer reduced motion', async () => {
    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
      ...matchMedia(query),
      matches: query === '(prefers-reduced-motion: reduce)',
    }));
    await openHome();
    expect(carousel().autoplay.running).toBe(false);
    act(() => slideLinks()[0]?.focus());
    act(() => screen.getByRole('link', { name: 'See More' }).focus());
    expect(carousel().autoplay.running).toBe(false);
    await act(() => new Promise(requestAnimationFrame));
  });

  it('pauses on pointer hover (Swiper)', async () => {
    await openHome();
    const swiper = carousel();
    fireEvent.pointerEnter(swiper.el, { pointerType: 'mouse' });
    expect(swiper.autoplay.paused).toBe(true);
  });
});
