import { expect, test } from './fixtures/test.ts';
import { waitForHomePage } from './support/page-helpers.ts';

test.describe('Not-found page', () => {
  test('an unknown route shows 404, Page Not Found, the explanation and Go Back Home @both', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    const main = page.getByRole('main');
    await expect(main.getByText('404', { exact: true })).toBeVisible();
    await expect(main.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    // The sentence of docs/product.md, "Not-found page", with its typographic (curly) apostrophe.
    await expect(main.getByText('The page you are looking for doesn’t exist or has been moved.', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle(/Page Not Found/);
    // The shared layout stays around it.
    await expect(page.getByRole('link', { name: 'Company Logo' })).toBeVisible();

    // The server tells crawlers and tools the truth as well.
    expect(response?.status()).toBe(404);

    await main.getByRole('link', { name: 'Go Back Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('heading', { name: 'Products Gallery' })).toBeVisible();
  });

  test("the app's own routes answer 200, unknown ones 404, an invalid product id 400", async ({ request }) => {
    for (const path of ['/', '/products', '/products?q=x&sort=nameAZ', '/productdetails/1']) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
    const invalid = await request.get('/productdetails/abc');
    expect(invalid.status()).toBe(400);
    expect(await invalid.text()).toContain('<div id="root">');
    for (const path of ['/nope', '/products/extra', '/productdetails', '/productdetails/1/more']) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      // Still the app's page, so the browser shows the not-found screen.
      expect(await response.text(), path).toContain('<div id="root">');
    }
  });

  test('an unknown route reached inside the app shows the not-found page too', async ({ page }) => {
    await page.goto('/');
    // The app starts after the lead photo: until it has taken over, a pushState would change the URL under the
    // server's home page and the app would then hydrate that page for another route.
    await waitForHomePage(page);
    await page.evaluate(() => {
      history.pushState({}, '', '/still/not/here');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  });
});
