import { dollars, FIXTURE_PRODUCTS, productById } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { decodedPhoto, openInApp, spinner } from './support/page-helpers.ts';

test.describe('Product detail', () => {
  test('shows image, title, description, category, price and stars with the numeric rate @both', async ({ page }) => {
    const product = productById(FIXTURE_PRODUCTS, 1);
    await page.goto(`/productdetails/${product.id}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
    await expect(spinner(page)).toHaveCount(0);
    await expect(page).toHaveTitle(new RegExp(product.title.slice(0, 20)));

    const image = main.getByRole('img', { name: product.title, exact: true });
    await expect(image).toBeVisible();
    // Served through our own API (the page guard also fails on any request to the upstream), and really loaded;
    // `src` is the 640 px variant, the fallback for browsers that ignore srcset.
    await expect(image).toHaveAttribute('src', `/api/products/${product.id}/image?w=640`);
    expect(await decodedPhoto(image)).toBe('decoded');

    await expect(main.getByText(product.description, { exact: true })).toBeVisible();
    // The product's own badge: its related products below it show the same category.
    await expect(main.locator('article').first().getByText(product.category, { exact: true })).toBeVisible();
    await expect(main.getByText(dollars(product.price), { exact: true })).toBeVisible();
    const stars = main.getByRole('img', { name: 'Rated 3.9 out of 5', exact: true });
    await expect(stars).toBeVisible();
    await expect(stars).toContainText('3.9');

    await main.getByRole('link', { name: 'Back to Products' }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
  });

  test('a product without a rating shows 0 stars and the value 0.0', async ({ page }) => {
    const product = productById(FIXTURE_PRODUCTS, 5);
    expect(product.rating).toBeUndefined();
    await page.goto(`/productdetails/${product.id}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
    const stars = main.getByRole('img', { name: 'Rated 0.0 out of 5', exact: true });
    await expect(stars).toBeVisible();
    await expect(stars).toContainText('0.0');
    expect(await stars.locator('[data-star]').evaluateAll((all) => all.map((star) => star.getAttribute('data-star')))).toEqual(
      Array(5).fill('empty'),
    );
    await expect(main.getByText(dollars(product.price), { exact: true })).toBeVisible();
  });

  for (const rawId of ['abc', '1e3', '-1']) {
    test(`a non-numeric id (${rawId}) shows Invalid Product ID and asks nobody`, async ({ page, stub, apiRequests }) => {
      stub.resetCounts();
      await page.goto(`/productdetails/${rawId}`);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { name: 'Invalid Product ID' })).toBeVisible();
      await main.getByRole('link', { name: 'Back to Products' }).waitFor();
      await expect(main.getByText('Product not found')).toHaveCount(0);
      // Let anything the page might still send arrive, then check that nothing about products was asked.
      await page.waitForLoadState('networkidle');
      expect(apiRequests).toEqual([]);
      expect(stub.requestCount(`/products/${rawId}`)).toBe(0);
      expect(stub.requestCount()).toBe(0);

      await main.getByRole('link', { name: 'Back to Products' }).click();
      await expect(page).toHaveURL(/\/products$/);
    });
  }

  test('an id the upstream does not know (it answers null) shows Product not found at once, with one request @both', async ({
    page,
    stub,
    apiRequests,
  }) => {
    // Inside the app, which asks the API (the server, asked for the page, answers 404 with the same message).
    await openInApp(page, '/productdetails/999');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Product not found' })).toBeVisible();
    await expect(spinner(page)).toHaveCount(0);
    await expect(main.getByRole('link', { name: 'Back to Products' })).toBeVisible();
    // 'At once': the 404 is final, so the message came after the first answer, with no retry before or after it.
    await page.waitForLoadState('networkidle');
    expect(apiRequests).toEqual(['/api/products/999']);
    expect(stub.requestCount('/products/999')).toBeLessThanOrEqual(1);
  });
});

test.describe('Product detail with a failing upstream', () => {
  test.use({ siteKind: 'fresh' });

  test('an upstream answer without an id shows Product not found', async ({ page, stub, apiRequests }) => {
    stub.override('/products/3', { status: 200, body: JSON.stringify({ title: 'no id here', price: 1 }) });
    await openInApp(page, '/productdetails/3');
    await expect(page.getByRole('main').getByRole('heading', { name: 'Product not found' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(apiRequests).toEqual(['/api/products/3']);
  });

  test('a failed load (upstream 500) ends in Product not found after the retries, not an endless spinner', async ({
    page,
    stub,
    apiRequests,
  }) => {
    // The data layer retries 3 times with 2 s, 4 s, 8 s between attempts.
    test.setTimeout(60_000);
    stub.override('/products/2', 'status500');
    await openInApp(page, '/productdetails/2');
    await expect(spinner(page)).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { name: 'Product not found' })).toBeVisible({ timeout: 40_000 });
    await expect(spinner(page)).toHaveCount(0);
    expect(apiRequests).toEqual(Array(4).fill('/api/products/2'));
  });
});
