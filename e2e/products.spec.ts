import type { Locator, Page } from '@playwright/test';
import { categoryNames, categoryPath, dollars, expectedTitles, FIXTURE_PRODUCTS, SORT_LABELS } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { cardTitles, productCard, productCards, waitForProductsPage } from './support/page-helpers.ts';

const ALL_TITLES = FIXTURE_PRODUCTS.map((product) => product.title);

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search products' });
}

function sortSelect(page: Page) {
  return page.getByRole('combobox', { name: 'Sort products' });
}

function categorySelect(page: Page) {
  return page.getByRole('combobox', { name: 'Filter by category' });
}

/** Products 19 and 20 of the fixture carry the hostile category names. */
const OUTDOOR = FIXTURE_PRODUCTS[18]!.category;
const MARKUP = FIXTURE_PRODUCTS[19]!.category;

/**
 * Puts the pointer on the middle of `target`, brought to the middle of the window, and presses there if asked, as a
 * visitor does: whatever element is on top there gets the events (Playwright's own click would refuse an element
 * that the card's stretched product link covers).
 */
async function pointAt(page: Page, target: Locator, { press }: { press: boolean }): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = (await target.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await (press ? page.mouse.click(x, y) : page.mouse.move(x, y));
}

/** Number of distinct card columns, from the cards' x positions. */
async function columnCount(page: Page): Promise<number> {
  const xs = await productCards(page).evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().x)));
  return new Set(xs).size;
}

test.describe('Products list', () => {
  test('shows the heading, a search box, the sort options and every product in catalogue order', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(page).toHaveTitle(/Our Products/);
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Search products...');
    await expect(sortSelect(page).getByRole('option')).toHaveText(Object.values(SORT_LABELS));
    await expect(sortSelect(page)).toHaveValue('none');
    expect(await cardTitles(page)).toEqual(ALL_TITLES);
  });

  test('each card links to its product by its title and to its category by its badge, with stars and a dollar price', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    for (const [index, product] of FIXTURE_PRODUCTS.entries()) {
      const card = productCards(page).nth(index);
      const links = card.getByRole('link');
      await expect(links).toHaveCount(2);
      await expect(links.nth(0)).toHaveAttribute('href', categoryPath(product.category));
      await expect(links.nth(0)).toHaveText(product.category, { useInnerText: false });
      await expect(links.nth(1)).toHaveAttribute('href', `/productdetails/${product.id}`);
      await expect(card.getByRole('link', { name: product.title, exact: true })).toHaveAttribute('href', `/productdetails/${product.id}`);
      await expect(card.getByRole('img', { name: product.title })).toHaveCount(1);
      await expect(card.getByRole('heading')).toHaveText(product.title);
      // The rate to one decimal; docs/product.md's default on cards is 4 when the product has no rating.
      const rate = (product.rating?.rate ?? 4).toFixed(1);
      await expect(card.getByRole('img', { name: `Rated ${rate} out of 5`, exact: true })).toBeVisible();
      await expect(card.getByText(dollars(product.price), { exact: true })).toBeVisible();
    }
  });

  test('stars: five per rating, full/half/empty by the rate, and 4 of 5 when a product has no rating', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const starsOf = (id: number) =>
      productCard(page, id)
        .getByRole('img', { name: /^Rated / })
        .locator('[data-star]');
    const fills = (id: number) => starsOf(id).evaluateAll((stars) => stars.map((star) => star.getAttribute('data-star')));

    // Product 5 has no rating in the data: 4 full stars and 'Rated 4.0 out of 5'.
    await expect(productCard(page, 5).getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeVisible();
    expect(await fills(5)).toEqual(['full', 'full', 'full', 'full', 'empty']);
    // 2.1 → two full stars; 4.4 → four and a half.
    expect(await fills(4)).toEqual(['full', 'full', 'empty', 'empty', 'empty']);
    expect(await fills(9)).toEqual(['full', 'full', 'full', 'full', 'half']);
  });

  test('search filters by a case-insensitive substring of the title', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    for (const text of ['MENS', 'gold', 'ssd', 'ÉCHARPE', 'jacket']) {
      await searchBox(page).fill(text);
      const expected = expectedTitles(FIXTURE_PRODUCTS, text, 'none');
      expect(expected.length, `test data for '${text}'`).toBeGreaterThan(0);
      await expect.poll(() => cardTitles(page), { message: `search '${text}'` }).toEqual(expected);
    }
    // Category and description do not count: 'electronics' is only a category.
    await searchBox(page).fill('electronics');
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
  });

  for (const sort of ['priceLowHigh', 'priceHighLow', 'nameAZ', 'none'] as const) {
    test(`sort '${SORT_LABELS[sort]}' orders the cards as the data says`, async ({ page }) => {
      await page.goto(sort === 'none' ? '/products?sort=nameAZ' : '/products');
      await waitForProductsPage(page);
      await sortSelect(page).selectOption({ label: SORT_LABELS[sort] });
      await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, '', sort));
      if (sort !== 'none') {
        const prices = await productCards(page).getByText(/^\$/).allTextContents();
        const values = prices.map((price) => Number(price.replace(/[$,]/g, '')));
        if (sort === 'priceLowHigh') expect(values).toEqual([...values].sort((a, b) => a - b));
        if (sort === 'priceHighLow') expect(values).toEqual([...values].sort((a, b) => b - a));
      }
      await expect(page).toHaveURL(sort === 'none' ? /\/products$/ : new RegExp(`[?&]sort=${sort}(&|$)`));
    });
  }

  test('filtering comes first, then sorting', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await sortSelect(page).selectOption('priceHighLow');
    await searchBox(page).fill('women');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'women', 'priceHighLow'));
    await sortSelect(page).selectOption('nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'women', 'nameAZ'));
  });

  test('an empty result says No products found. @both', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('zzz-no-such-product');
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
    await expect(productCards(page)).toHaveCount(0);
    await searchBox(page).fill('');
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
  });

  test('the grid has 1 column on a phone @mobile', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    expect(await columnCount(page)).toBe(1);
    const card = await productCards(page).first().boundingBox();
    // One card fills the row (the page's side padding aside).
    expect(card!.width).toBeGreaterThan(375 * 0.8);
  });

  test('the grid has 2 columns from 640 px, 3 from 768 px, 4 from 1024 px', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    for (const [width, columns] of [
      [1280, 4],
      [1024, 4],
      [1023, 3],
      [800, 3],
      [768, 3],
      [767, 2],
      [700, 2],
      [640, 2],
      [639, 1],
      [375, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => columnCount(page), { message: `columns at ${width} px` }).toBe(columns);
      const template = await page
        .getByRole('main')
        .getByRole('list')
        .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns);
      expect(template.split(' ').length, `grid-template-columns at ${width} px: ${template}`).toBe(columns);
    }
  });

  test('search and sort live in the URL and survive a reload', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('Mens');
    await sortSelect(page).selectOption('priceLowHigh');
    await expect(page).toHaveURL(/\/products\?q=Mens&sort=priceLowHigh$/);
    const expected = expectedTitles(FIXTURE_PRODUCTS, 'Mens', 'priceLowHigh');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    await page.reload();
    await waitForProductsPage(page);
    await expect(searchBox(page)).toHaveValue('Mens');
    await expect(sortSelect(page)).toHaveValue('priceLowHigh');
    expect(await cardTitles(page)).toEqual(expected);
  });

  test('Back from a product returns to the list with its search and sort', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('gold');
    await sortSelect(page).selectOption('nameAZ');
    const expected = expectedTitles(FIXTURE_PRODUCTS, 'gold', 'nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    await productCards(page).first().locator('a[href^="/productdetails/"]').click();
    await expect(page).toHaveURL(/\/productdetails\/\d+$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/products\?q=gold&sort=nameAZ$/);
    await expect(searchBox(page)).toHaveValue('gold');
    await expect(sortSelect(page)).toHaveValue('nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    // Each sort choice is its own history entry: Back undoes it.
    await page.goBack();
    await expect(page).toHaveURL(/\/products\?q=gold$/);
    await expect(sortSelect(page)).toHaveValue('none');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'gold', 'none'));
  });

  test('a shared link opens with its search and sort applied @both', async ({ page }) => {
    await page.goto('/products?q=SLIM&sort=priceHighLow');
    await waitForProductsPage(page);
    await expect(searchBox(page)).toHaveValue('SLIM');
    await expect(sortSelect(page)).toHaveValue('priceHighLow');
    expect(await cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'SLIM', 'priceHighLow'));
  });

  test('an unknown sort value in the URL falls back to Sort by... and the catalogue order', async ({ page }) => {
    await page.goto('/products?sort=cheapestFirst');
    await waitForProductsPage(page);
    await expect(sortSelect(page)).toHaveValue('none');
    await expect(sortSelect(page).locator('option:checked')).toHaveText('Sort by...');
    expect(await cardTitles(page)).toEqual(ALL_TITLES);
  });

  test('a card opens its product page', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const product = FIXTURE_PRODUCTS[2]!;
    await page.getByRole('link', { name: product.title }).click();
    await expect(page).toHaveURL(new RegExp(`/productdetails/${product.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
  });

  test('a press anywhere on a card but its badge opens the product; the badge opens its category @both', async ({ page }) => {
    const product = FIXTURE_PRODUCTS[2]!;
    for (const where of ['photo', 'price', 'stars'] as const) {
      await page.goto('/products');
      await waitForProductsPage(page);
      const card = productCard(page, product.id);
      const target = {
        photo: card.getByRole('img', { name: product.title }),
        price: card.getByText(dollars(product.price), { exact: true }),
        stars: card.getByRole('img', { name: /^Rated / }),
      }[where];
      await pointAt(page, target, { press: true });
      await expect(page, `a press on the ${where}`).toHaveURL(new RegExp(`/productdetails/${product.id}$`));
    }
    await page.goto('/products');
    await waitForProductsPage(page);
    await productCard(page, product.id).getByRole('link', { name: product.category }).click();
    await expect(page).toHaveURL(categoryPath(product.category));
    await expect(categorySelect(page)).toHaveValue(product.category);
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, '', 'none', product.category));
  });

  test('a card lifts under the pointer anywhere on it, and keeps its photo priority', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const card = productCards(page).first().locator('article');
    const transform = () => card.evaluate((element) => getComputedStyle(element).transform);
    expect(await transform()).toBe('none');
    await pointAt(page, productCards(page).first().getByText(dollars(FIXTURE_PRODUCTS[0]!.price), { exact: true }), { press: false });
    await expect.poll(transform).not.toBe('none');
    const loading = await productCards(page)
      .getByRole('img', { name: /^(?!Rated)/ })
      .evaluateAll((images) => images.map((image) => image.getAttribute('loading')));
    expect(loading).toEqual(['eager', ...Array<string>(FIXTURE_PRODUCTS.length - 1).fill('lazy')]);
  });
});

test.describe('Category filter', () => {
  test('offers All categories, then every category in catalogue order', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(categorySelect(page).getByRole('option')).toHaveText(['All categories', ...categoryNames(FIXTURE_PRODUCTS)], {
      useInnerText: false,
    });
    await expect(categorySelect(page)).toHaveValue('');
  });

  test('is chosen by keyboard, kept in the URL, survives a reload, and Back undoes it @both', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await categorySelect(page).focus();
    // A closed select moves to the next option on ArrowDown in Chromium: the first category after All categories.
    await page.keyboard.press('ArrowDown');
    const first = categoryNames(FIXTURE_PRODUCTS)[0]!;
    await expect(categorySelect(page)).toHaveValue(first);
    await expect(page).toHaveURL(categoryPath(first));
    const expected = expectedTitles(FIXTURE_PRODUCTS, '', 'none', first);
    await expect.poll(() => cardTitles(page)).toEqual(expected);
    await expect(page.getByText(`${expected.length} of ${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
    await expect(page).toHaveTitle(`${first} · Our Products · Catalogue`);

    await page.reload();
    await waitForProductsPage(page);
    await expect(categorySelect(page)).toHaveValue(first);
    expect(await cardTitles(page)).toEqual(expected);

    await page.goBack();
    await expect(page).toHaveURL(/\/products$/);
    await expect(categorySelect(page)).toHaveValue('');
    await expect.poll(() => cardTitles(page)).toEqual(ALL_TITLES);
    await expect(page).toHaveTitle('Our Products · Catalogue');
  });

  test('combines with search and sort: category, then text, then sort', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await categorySelect(page).selectOption("women's clothing");
    await searchBox(page).fill('jacket');
    await sortSelect(page).selectOption('priceLowHigh');
    const expected = expectedTitles(FIXTURE_PRODUCTS, 'jacket', 'priceLowHigh', "women's clothing");
    // The text alone matches a men's jacket too; the category leaves it out.
    expect(expectedTitles(FIXTURE_PRODUCTS, 'jacket', 'priceLowHigh').length).toBeGreaterThan(expected.length);
    await expect.poll(() => cardTitles(page)).toEqual(expected);
    await expect(page).toHaveURL(/\/products\?category=women%27s\+clothing&q=jacket&sort=priceLowHigh$/);
    await categorySelect(page).selectOption('jewelery');
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
    await expect(page.getByText(`0 of ${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
  });

  for (const name of [OUTDOOR, MARKUP]) {
    test(`carries the hostile name ${JSON.stringify(name)} through the URL, a reload and Back @both`, async ({ page }) => {
      await page.goto('/products?sort=nameAZ');
      await waitForProductsPage(page);
      await categorySelect(page).selectOption({ label: name });
      await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(name);
      expect(new URL(page.url()).searchParams.get('sort')).toBe('nameAZ');
      const expected = expectedTitles(FIXTURE_PRODUCTS, '', 'nameAZ', name);
      await expect.poll(() => cardTitles(page)).toEqual(expected);
      await page.reload();
      await waitForProductsPage(page);
      await expect(categorySelect(page)).toHaveValue(name);
      expect(await cardTitles(page)).toEqual(expected);
      await productCards(page).first().locator('a[href^="/productdetails/"]').click();
      await expect(page).toHaveURL(/\/productdetails\/\d+$/);
      await page.goBack();
      await expect(categorySelect(page)).toHaveValue(name);
      await expect.poll(() => cardTitles(page)).toEqual(expected);
    });
  }

  test("the detail page's category badge opens that category's list", async ({ page }) => {
    const product = FIXTURE_PRODUCTS[19]!;
    await page.goto(`/productdetails/${product.id}`);
    await page.getByRole('main').getByRole('link', { name: product.category }).click();
    await expect(page).toHaveURL(categoryPath(product.category));
    await expect(categorySelect(page)).toHaveValue(product.category);
    await expect.poll(() => cardTitles(page)).toEqual([product.title]);
  });

  test('an unknown category shows the list with no products, the name chosen, until All categories @both', async ({ page }) => {
    const response = await page.goto('/products?category=furniture');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
    await expect(categorySelect(page)).toHaveValue('furniture');
    await expect(page.getByText(`0 of ${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
    await categorySelect(page).selectOption('');
    await expect(page).toHaveURL(/\/products$/);
    await expect.poll(() => cardTitles(page)).toEqual(ALL_TITLES);
  });
});
