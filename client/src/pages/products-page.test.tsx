import { act, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { categoriesOf } from '@catalogue/shared/categories';
import type { Product } from '@catalogue/shared/product';
import { LOCAL_LIST_MAX_PRODUCTS } from '@catalogue/shared/product-paging';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { renderApp } from '../testing/render-app';
import { resetTestSite, startClientTestSite, type TestSite } from '../testing/test-site';

let site: TestSite;
beforeAll(async () => {
  site = await startClientTestSite();
});
afterEach(() => resetTestSite(site));
afterAll(() => site.close());

/** The card titles, in the order the grid shows them. */
function shownTitles(): string[] {
  return screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent ?? '');
}

/**
 * Opens the page and waits until it holds the whole list, as it does for a catalogue this small (its first page
 * says how large the catalogue is; the list follows), so what the test does next is filtered in the browser.
 */
async function openProducts(path: string | string[] = '/products') {
  const app = renderApp(path, { site });
  await screen.findAllByRole('heading', { level: 2 });
  await waitFor(() => expect(app.queryClient.getQueryData(['products', 'list'])).toBeDefined());
  return {
    ...app,
    search: screen.getByRole('searchbox', { name: 'Search products' }),
    category: screen.getByRole('combobox', { name: 'Filter by category' }),
    sort: screen.getByRole('combobox', { name: 'Sort products' }),
    query: () => Object.fromEntries(new URLSearchParams(app.router.location.search)),
  };
}

const CATALOGUE_ORDER = FIXTURE_PRODUCTS.map((product) => product.title);
/** Products 19 and 20 of the fixture carry the hostile category names. */
const OUTDOOR = FIXTURE_PRODUCTS[18]!.category;
const MARKUP = FIXTURE_PRODUCTS[19]!.category;

/** The card (its list item) whose product link is named `title`. */
function cardOf(title: string | RegExp): HTMLElement {
  return screen.getByRole('link', { name: title }).closest('li')!;
}

/**
 * Waits for the grid to show `titles`: a new search or sort paints its first screen of cards before the rest
 * (useProgressiveList), and the fixture catalogue is longer than a screen.
 */
const expectShown = (titles: readonly string[]) => waitFor(() => expect(shownTitles()).toEqual(titles));

describe('products page', () => {
  it('shows the heading, the controls and every product in catalogue order', async () => {
    const { search, sort } = await openProducts();
    expect(screen.getByRole('heading', { level: 1, name: 'Our Products' })).toBeInTheDocument();
    expect(document.title).toBe('Our Products · Catalogue');
    expect(search).toHaveAttribute('placeholder', 'Search products...');
    expect(
      within(sort)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Sort by...', 'Price: Low → High', 'Price: High → Low', 'Name: A → Z']);
    expect(sort).toHaveValue('none');
    expect(shownTitles()).toEqual(CATALOGUE_ORDER);
  });

  it('shows each product as a card whose product link is named by its title, with image, category link, stars and a dollar price', async () => {
    await openProducts();
    const link = screen.getByRole('link', { name: 'Mens Casual Premium Slim Fit T-Shirts' });
    expect(link).toHaveAttribute('href', '/productdetails/2');
    const card = cardOf('Mens Casual Premium Slim Fit T-Shirts');
    expect(within(card).getByRole('img', { name: 'Mens Casual Premium Slim Fit T-Shirts' })).toHaveAttribute(
      'src',
      '/api/products/2/image?w=640',
    );
    expect(within(card).getByRole('img', { name: 'Rated 4.1 out of 5' })).toBeInTheDocument();
    expect(within(card).getByText('$22.30')).toBeInTheDocument();
    // Two links and no more, neither inside the other: the category's and the product's.
    const links = within(card).getAllByRole('link');
    expect(links.map((each) => [each.textContent, each.getAttribute('href')])).toEqual([
      ["men's clothing", '/products?category=men%27s+clothing'],
      ['Mens Casual Premium Slim Fit T-Shirts', '/productdetails/2'],
    ]);
    expect(links.some((each) => each.querySelector('a') !== null)).toBe(false);
  });

  it('shows 4 stars on a card whose product has no rating', async () => {
    await openProducts();
    const card = cardOf(/John Hardy Women's Legends Naga/);
    expect(within(card).getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeInTheDocument();
  });

  it('loads the first card’s photo eagerly and the rest lazily', async () => {
    await openProducts();
    const loading = screen.getAllByRole('listitem').map((card) =>
      within(card)
        .getByRole('img', { name: /^(?!Rated)/ })
        .getAttribute('loading'),
    );
    expect(loading).toEqual(['eager', ...Array<string>(CATALOGUE_ORDER.length - 1).fill('lazy')]);
  });

  it('searches titles case-insensitively and writes the text to the URL without piling up history', async () => {
    const { user, search, query, router } = await openProducts(['/', '/products']);
    await user.type(search, 'JACKET');
    expect(shownTitles()).toEqual([
      'Mens Cotton Jacket',
      "BIYLACLESEN Women's 3-in-1 Snowboard Jacket Winter Coats",
      "Lock and Love Women's Removable Hooded Faux Leather Moto Biker Jacket",
      'Rain Jacket Women Windbreaker Striped Climbing Raincoats',
    ]);
    expect(query()).toEqual({ q: 'JACKET' });
    act(() => void router.navigate(-1));
    expect(router.location.pathname).toBe('/');
  });

  it('drops q from the URL when the search is cleared', async () => {
    const { user, search, query } = await openProducts('/products?q=gold');
    await user.clear(search);
    expect(query()).toEqual({});
    await expectShown(CATALOGUE_ORDER);
  });

  it.each([
    ['priceLowHigh', ["opna Women's Short Sleeve Moisture", "MBJ Women's Solid Short Sleeve Boat Neck V", 'White Gold Plated Princess']],
    [
      'priceHighLow',
      [
        'Samsung 49-Inch CHG90 144Hz Curved Gaming Monitor (LC49HG90DMNXZA)',
        "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
        'Acer SB220Q bi 21.5 inches Full HD (1920 x 1080) IPS Ultra-Thin',
      ],
    ],
    [
      'nameAZ',
      [
        'Acer SB220Q bi 21.5 inches Full HD (1920 x 1080) IPS Ultra-Thin',
        "BIYLACLESEN Women's 3-in-1 Snowboard Jacket Winter Coats",
        'DANVOUY Womens T Shirt Casual Cotton Short',
      ],
    ],
  ])('sorts by %s and keeps it in the URL', async (value, firstThree) => {
    const { user, sort, query } = await openProducts();
    await user.selectOptions(sort, value);
    await waitFor(() => expect(shownTitles()).toHaveLength(CATALOGUE_ORDER.length));
    expect(shownTitles().slice(0, 3)).toEqual(firstThree);
    expect(query()).toEqual({ sort: value });
  });

  it('sorts names by locale order across upper and lower case and accents', async () => {
    const { user, sort } = await openProducts();
    await user.selectOptions(sort, 'nameAZ');
    await expectShown([...CATALOGUE_ORDER].sort((a, b) => a.localeCompare(b)));
    // Not by code points, where 'É' and 'o' would come after every plain capital.
    const titles = shownTitles();
    expect(titles.indexOf('Écharpe en laine mérinos')).toBe(titles.indexOf('DANVOUY Womens T Shirt Casual Cotton Short') + 1);
    expect(titles.indexOf("opna Women's Short Sleeve Moisture")).toBe(
      titles.indexOf('Pierced Owl Rose Gold Plated Stainless Steel Double') - 1,
    );
  });

  it('filters first, then sorts', async () => {
    const { user, search, sort, query } = await openProducts();
    await user.type(search, 'gold');
    await user.selectOptions(sort, 'priceLowHigh');
    expect(shownTitles()).toEqual([
      'White Gold Plated Princess',
      'Pierced Owl Rose Gold Plated Stainless Steel Double',
      'Solid Gold Petite Micropave',
      "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
    ]);
    expect(query()).toEqual({ q: 'gold', sort: 'priceLowHigh' });
  });

  it('makes a sort change its own history entry, so Back restores the previous order', async () => {
    const { user, sort, router } = await openProducts();
    await user.selectOptions(sort, 'priceHighLow');
    act(() => void router.navigate(-1));
    expect(router.location.search).toBe('');
    expect(screen.getByRole('combobox', { name: 'Sort products' })).toHaveValue('none');
    await expectShown(CATALOGUE_ORDER);
  });

  it('drops sort from the URL when "Sort by..." is chosen again', async () => {
    const { user, sort, query } = await openProducts('/products?sort=nameAZ');
    await user.selectOptions(sort, 'none');
    expect(query()).toEqual({});
  });

  it('reads search and sort from the URL (reload, shared link)', async () => {
    const { search, sort } = await openProducts('/products?q=gold&sort=priceHighLow');
    expect(search).toHaveValue('gold');
    expect(sort).toHaveValue('priceHighLow');
    expect(shownTitles()).toEqual([
      "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
      'Solid Gold Petite Micropave',
      'Pierced Owl Rose Gold Plated Stainless Steel Double',
      'White Gold Plated Princess',
    ]);
  });

  it('falls back to no sort for an unknown sort value', async () => {
    const { sort } = await openProducts('/products?sort=cheapest');
    expect(sort).toHaveValue('none');
    expect(shownTitles()).toEqual(CATALOGUE_ORDER);
  });

  it('offers every category of the list, in catalogue order, after "All categories", hostile names as text', async () => {
    const { category } = await openProducts();
    const options = within(category).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['All categories', ...categoriesOf(FIXTURE_PRODUCTS)]);
    expect(options.map((option) => option.getAttribute('value'))).toEqual(['', ...categoriesOf(FIXTURE_PRODUCTS)]);
    expect(categoriesOf(FIXTURE_PRODUCTS)).toEqual(expect.arrayContaining([OUTDOOR, MARKUP]));
    expect(category).toHaveValue('');
    expect(document.querySelector('script')).toBeNull();
  });

  it('filters by the chosen category, keeps it in the URL as its own history entry, and counts the matches', async () => {
    const { user, category, query, router } = await openProducts();
    await user.selectOptions(category, 'jewelery');
    const jewelery = FIXTURE_PRODUCTS.filter((product) => product.category === 'jewelery').map((product) => product.title);
    await expectShown(jewelery);
    expect(query()).toEqual({ category: 'jewelery' });
    expect(screen.getByText(`${jewelery.length} of ${CATALOGUE_ORDER.length} products`)).toBeInTheDocument();
    expect(document.title).toBe('jewelery · Our Products · Catalogue');

    act(() => void router.navigate(-1));
    expect(router.location.search).toBe('');
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveValue('');
    await expectShown(CATALOGUE_ORDER);
    expect(document.title).toBe('Our Products · Catalogue');
  });

  it('drops category from the URL when "All categories" is chosen again', async () => {
    const { user, category, query } = await openProducts('/products?category=jewelery&sort=nameAZ');
    await user.selectOptions(category, '');
    expect(query()).toEqual({ sort: 'nameAZ' });
    await waitFor(() => expect(shownTitles()).toHaveLength(CATALOGUE_ORDER.length));
  });

  it('filters by category, then by text, then sorts', async () => {
    const { user, category, search, sort, query } = await openProducts();
    await user.selectOptions(category, "women's clothing");
    await user.type(search, 'jacket');
    await user.selectOptions(sort, 'priceLowHigh');
    // 'Mens Cotton Jacket' matches the text but not the category.
    await expectShown([
      "Lock and Love Women's Removable Hooded Faux Leather Moto Biker Jacket",
      'Rain Jacket Women Windbreaker Striped Climbing Raincoats',
      "BIYLACLESEN Women's 3-in-1 Snowboard Jacket Winter Coats",
    ]);
    expect(query()).toEqual({ category: "women's clothing", q: 'jacket', sort: 'priceLowHigh' });
    await user.selectOptions(category, 'jewelery');
    expect(screen.getByText('No products found.')).toBeInTheDocument();
    expect(screen.getByText(`0 of ${CATALOGUE_ORDER.length} products`)).toBeInTheDocument();
  });

  it.each([OUTDOOR, MARKUP])('reads the hostile category %s back from the URL it writes', async (name) => {
    const { user, category, query, router } = await openProducts();
    await user.selectOptions(category, name);
    const expected = FIXTURE_PRODUCTS.filter((product) => product.category === name).map((product) => product.title);
    await expectShown(expected);
    expect(query()).toEqual({ category: name });
    const written = router.location.search;
    expect(written).toBe(`?${new URLSearchParams({ category: name }).toString()}`);

    // The same URL opened afresh (a reload, a shared link) shows the same list.
    await act(async () => {
      await router.navigate(`/products${written}`);
    });
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(name);
    expect(shownTitles()).toEqual(expected);
  });

  it('shows an unknown category as chosen, over no products, until another is chosen', async () => {
    const { user } = renderApp('/products?category=furniture', { site });
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
    const category = screen.getByRole('combobox', { name: 'Filter by category' });
    expect(category).toHaveValue('furniture');
    expect(within(category).getAllByRole('option').at(-1)).toHaveTextContent('furniture');
    expect(screen.getByText(`0 of ${CATALOGUE_ORDER.length} products`)).toBeInTheDocument();
    await user.selectOptions(category, '');
    await expectShown(CATALOGUE_ORDER);
  });

  it("opens the category's list from a card's badge", async () => {
    const { user, router, query } = await openProducts();
    await user.click(within(cardOf(FIXTURE_PRODUCTS[19]!.title)).getByRole('link', { name: MARKUP }));
    expect(router.location.pathname).toBe('/products');
    expect(query()).toEqual({ category: MARKUP });
    await expectShown([FIXTURE_PRODUCTS[19]!.title]);
    expect(screen.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(MARKUP);
  });

  it('says so when nothing matches', async () => {
    const { user, search } = await openProducts();
    await user.type(search, 'sofa');
    expect(screen.getByText('No products found.')).toBeInTheDocument();
    expect(screen.queryAllByRole('heading', { level: 2 })).toHaveLength(0);
  });

  it('shows the full-screen spinner until the products arrive', async () => {
    renderApp('/products', { site });
    const spinner = screen.getByRole('status', { name: 'Loading' });
    await waitForElementToBeRemoved(spinner);
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(CATALOGUE_ORDER.length);
  });

  it('offers "Try again" when the list cannot load, and recovers', async () => {
    site.upstream.override('/products', 'status500');
    const { user } = renderApp('/products', { site });
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    site.upstream.clearOverrides();
    await user.click(retry);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(CATALOGUE_ORDER.length));
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});

describe('products page with more products than a page shows', () => {
  const PAGE_SIZE = 24;
  const LONG_CATALOGUE: Product[] = Array.from({ length: 130 }, (_, index) => ({
    ...FIXTURE_PRODUCTS[index % FIXTURE_PRODUCTS.length]!,
    id: index + 1,
    title: `${index % 2 === 0 ? 'Lamp' : 'Desk'} ${String(index + 1).padStart(3, '0')}`,
    price: 1000 - index,
  }));
  const titles = (products: readonly Product[]) => products.map((product) => product.title);
  const pages = () => screen.getByRole('navigation', { name: 'Pages of products' });

  beforeEach(() => site.upstream.setProducts(LONG_CATALOGUE));

  it('shows the first page, counts every product, and links the other pages', async () => {
    await openProducts();
    expect(shownTitles()).toEqual(titles(LONG_CATALOGUE.slice(0, PAGE_SIZE)));
    expect(screen.getByText('130 products')).toBeInTheDocument();
    expect(within(pages()).getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pages()).getByRole('link', { name: 'Page 6' })).toHaveAttribute('href', '/products?page=6');
    expect(within(pages()).getByRole('link', { name: 'Next' })).toHaveAttribute('rel', 'next');
    expect(within(pages()).queryByRole('link', { name: 'Previous' })).not.toBeInTheDocument();
  });

  it('moves through the pages by their links, keeping the page in the URL and the search in the links', async () => {
    const { user, search, query } = await openProducts();
    await user.type(search, 'lamp');
    await waitFor(() => expect(screen.getByText('65 of 130 products')).toBeInTheDocument());
    await user.click(within(pages()).getByRole('link', { name: 'Next' }));
    expect(query()).toEqual({ q: 'lamp', page: '2' });
    const lamps = LONG_CATALOGUE.filter((product) => product.title.startsWith('Lamp'));
    expect(shownTitles()).toEqual(titles(lamps.slice(PAGE_SIZE, 2 * PAGE_SIZE)));
    await user.click(within(pages()).getByRole('link', { name: 'Page 3' }));
    expect(shownTitles()).toEqual(titles(lamps.slice(2 * PAGE_SIZE)));
    expect(within(pages()).queryByRole('link', { name: 'Next' })).not.toBeInTheDocument();
    await user.click(within(pages()).getByRole('link', { name: 'Previous' }));
    expect(query()).toEqual({ q: 'lamp', page: '2' });
  });

  it('starts again at the first page when the search, the category or the sort changes', async () => {
    const { user, search, sort, query } = await openProducts('/products?page=3');
    expect(shownTitles()).toEqual(titles(LONG_CATALOGUE.slice(2 * PAGE_SIZE, 3 * PAGE_SIZE)));
    await user.selectOptions(sort, 'priceLowHigh');
    expect(query()).toEqual({ sort: 'priceLowHigh' });
    expect(shownTitles()[0]).toBe('Desk 130');
    await user.click(within(pages()).getByRole('link', { name: 'Page 2' }));
    await user.type(search, 'desk');
    expect(query()).toEqual({ sort: 'priceLowHigh', q: 'desk' });
  });

  it('says "No products found." on a page past the last, with a link back', async () => {
    renderApp('/products?page=9', { site });
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
    expect(within(pages()).getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/products?page=6');
  });
});

describe('products page with a catalogue too large to travel', () => {
  const LARGE: Product[] = Array.from({ length: LOCAL_LIST_MAX_PRODUCTS + 50 }, (_, index) => ({
    ...FIXTURE_PRODUCTS[index % FIXTURE_PRODUCTS.length]!,
    id: index + 1,
    title: `${['Lamp', 'Desk', 'Chair'][index % 3]!} ${String(index + 1).padStart(3, '0')}`,
  }));

  beforeEach(() => site.upstream.setProducts(LARGE));

  it('asks the server at each keystroke, with no pause needed, and never for the whole list', async () => {
    const { user } = renderApp('/products', { site });
    await screen.findAllByRole('heading', { level: 2 });
    const search = screen.getByRole('searchbox', { name: 'Search products' });
    expect(await screen.findByText(`${LARGE.length} products`)).toBeInTheDocument();
    site.apiRequests.length = 0;
    await user.type(search, 'chair 24');
    await waitFor(() => expect(shownTitles()).toEqual(['Chair 240', 'Chair 243', 'Chair 246', 'Chair 249']));
    expect(screen.getByText(`4 of ${LARGE.length} products`)).toBeInTheDocument();
    // One request per change of the box: user-event types each key in its own task, as a typist does.
    expect(site.apiRequests).toEqual(Array.from('chair 24', () => '/api/products/search'));

    await user.type(search, 'x');
    await waitFor(() => expect(screen.getByText('No products found.')).toBeInTheDocument());
  });

  it('searches the whole list here as soon as the browser holds it: the page subscribes to the list, not a snapshot', async () => {
    const { queryClient, user } = renderApp('/products', { site });
    expect(await screen.findByText(`${LARGE.length} products`)).toBeInTheDocument();
    const held = LARGE.slice(0, 30);
    await act(async () => {
      queryClient.setQueryData(['products', 'list'], held);
      await Promise.resolve();
    });
    expect(await screen.findByText(`${held.length} products`)).toBeInTheDocument();
    site.apiRequests.length = 0;
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'chair');
    await waitFor(() => expect(screen.getByText(`10 of ${held.length} products`)).toBeInTheDocument());
    expect(site.apiRequests).toEqual([]);
  });

  it('offers the catalogue’s categories, asked of the server', async () => {
    renderApp('/products', { site });
    const category = await screen.findByRole('combobox', { name: 'Filter by category' });
    await waitFor(() => expect(within(category).getAllByRole('option')).toHaveLength(1 + categoriesOf(LARGE).length));
  });
});
