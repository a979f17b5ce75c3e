import type { Page } from '@playwright/test';
import { FIXTURE_PRODUCTS } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { openInApp, productCards, spinner } from './support/page-helpers.ts';

/** Every test here steers its own upstream and needs a cold server cache, so each gets a new stub and server. */
test.use({ siteKind: 'fresh' });

/** Orange-red: a clearly red-dominant, orange-leaning colour (hue 0–40°, saturated). */
function isOrangeRed(rgb: string): boolean {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (r === undefined || g === undefined || b === undefined) return false;
  return r >= 200 && g <= 140 && b <= 90 && r - g >= 80;
}

/**
 * Asserts the spinner is up while the page's API request is unanswered: the upstream is slow, so the answer
 * arrives only after the stub's delay. `whileSpinning` checks more while it is up; then the content replaces it.
 * The page is opened inside the app (the server would send it whole, after waiting for the upstream itself).
 * How long a cold server takes to fill its list from a slow upstream on a busy machine is not what this is about, so
 * the answer is awaited for as long as the test may run, not an action's 10 s (CI once took longer).
 */
async function expectSpinnerUntilAnswered(
  page: Page,
  path: string,
  apiPath: string,
  content: () => Promise<void>,
  whileSpinning: () => Promise<void> = async () => {},
) {
  const requested = page.waitForRequest((request) => new URL(request.url()).pathname === apiPath);
  await openInApp(page, path);
  let answered = false;
  const response = (await requested).response().then((answer) => {
    answered = true;
    return answer;
  });
  await expect(spinner(page)).toBeVisible();
  await whileSpinning();
  expect(answered, 'the spinner was up before the answer came').toBe(false);
  expect((await response)?.status()).toBe(200);
  await content();
  await expect(spinner(page)).toHaveCount(0);
}

test.describe('Loading', () => {
  // Slow, not failing: the server's upstream limit stays far above the delay, even on a machine so busy that the
  // delay's 3 s become several more before the fill's process reads the answer (then 5 s, the default, ran out).
  test.use({ stubOptions: { slowDelayMs: 3_000 }, siteEnv: { UPSTREAM_TIMEOUT_MS: '20000' } });

  test('the Products page shows a full-screen orange-red spinner while a slow upstream answers @both', async ({ page, stub, viewport }) => {
    await stub.setMode('slow');
    await expectSpinnerUntilAnswered(
      page,
      '/products',
      // Opened inside the app, the page first asks for its page of the catalogue (which says how large it is).
      '/api/products/search',
      async () => {
        await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
      },
      async () => {
        const box = await spinner(page).boundingBox();
        expect(box).toMatchObject({ x: 0, y: 0, width: viewport!.width, height: viewport!.height });
        const colours = await spinner(page).evaluate((status) =>
          [status, ...status.querySelectorAll('*')].flatMap((element) => {
            const style = getComputedStyle(element);
            return [style.borderTopColor, style.borderRightColor, style.color, style.backgroundColor];
          }),
        );
        expect(colours.some(isOrangeRed), `an orange-red colour among ${colours.join(', ')}`).toBe(true);
      },
    );
  });

  test('Home shows the spinner while a slow upstream answers, then the carousel', async ({ page, stub }) => {
    await stub.setMode('slow');
    await expectSpinnerUntilAnswered(page, '/', '/api/products/search', async () => {
      await expect(page.locator('.swiper-slide')).toHaveCount(6);
    });
  });

  test('the detail page shows the spinner while a slow upstream answers, then the product', async ({ page, stub }) => {
    await stub.setMode('slow');
    await expectSpinnerUntilAnswered(page, '/productdetails/4', '/api/products/4', async () => {
      await expect(page.getByRole('heading', { level: 1, name: FIXTURE_PRODUCTS[3]!.title })).toBeVisible();
    });
  });
});

test.describe('Upstream down on a cold cache', () => {
  // The data layer retries 3 times with a growing delay before it gives up.
  test.setTimeout(90_000);

  for (const [page_, path, mode] of [
    ['Products', '/products', 'refuse'],
    ['Home', '/', 'status500'],
  ] as const) {
    test(`${page_} says it could not load, with Try again, instead of spinning forever (upstream ${mode})`, async ({
      page,
      stub,
      apiRequests,
    }) => {
      await stub.setMode(mode);
      // Inside the app: the server, asked for the page, answers at once with the alert (server-rendering.spec.ts).
      await openInApp(page, path);
      const tryAgain = page.getByRole('button', { name: 'Try again' });
      await expect(tryAgain).toBeVisible({ timeout: 60_000 });
      await expect(spinner(page)).toHaveCount(0);
      await expect(page.getByRole('alert')).toContainText(/couldn.t load/i);
      // The first attempt and three retries: no retry storm.
      expect(apiRequests, 'requests for the first page: one attempt and three retries').toEqual(Array(4).fill('/api/products/search'));

      // The upstream comes back: Try again loads the page.
      await stub.setMode('normal');
      await tryAgain.click();
      if (path === '/') await expect(page.locator('.swiper-slide')).toHaveCount(6);
      else await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
      await expect(tryAgain).toHaveCount(0);
      await expect(spinner(page)).toHaveCount(0);
    });
  }
});
