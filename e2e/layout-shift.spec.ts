import { expect, test } from './fixtures/test.ts';
import { type HeldPageRelay, startHeldPageRelay } from './support/held-page-relay.ts';
import { cumulativeShift, layoutShiftsOf, layoutShiftsSoFar } from './support/layout-shift.ts';

/**
 * Pages that never move (docs/performance.md, "Layout shift and the largest paint"): each page as the server sends it, then hydrated, its photos
 * loaded and the carousel started, shifts nothing a visitor would see, at a phone's, a tablet's and a desktop's
 * width, in both themes. Cumulative layout shift at most 0.01 ("good" is 0.1), summed over every shift without
 * input until 2 s after the network is idle.
 */
const CLS_LIMIT = 0.01;
const WIDTHS = [375, 768, 1280] as const;
const THEMES = ['light', 'dark'] as const;
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'products', path: '/products' },
  { name: 'product detail', path: '/productdetails/1' },
  { name: 'not found', path: '/no/such/page' },
] as const;

/**
 * Where home's HTML stops for a while, as on a slow connection: the browser draws what it has, and the rest of the
 * carousel must then arrive without moving what is shown. Both cuts are inside the carousel's row of slides.
 */
const HOME_CUTS = [
  {
    name: 'every slide, not the end of their row',
    cut: (html: string) => html.indexOf('<div class="swiper-pagination"') - '</div>'.length,
  },
  { name: 'three slides', cut: (html: string) => nthIndexOf(html, '<div class="swiper-slide"', 3) },
] as const;

function nthIndexOf(text: string, search: string, n: number): number {
  let at = -1;
  for (let found = 0; found <= n; found += 1) {
    at = text.indexOf(search, at + 1);
    if (at === -1) return -1;
  }
  return at;
}

/** The same site behind a relay that can hold a page part-way (`site`, hence `baseURL`, is the relay). */
const heldPageTest = test.extend<{ relay: HeldPageRelay }>({
  relay: async ({ stubbedSite }, use) => {
    const relay = await startHeldPageRelay(stubbedSite!.site);
    await use(relay);
    await relay.stop();
  },
  site: async ({ relay }, use) => use(relay),
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const theme of THEMES) {
      for (const { name, path } of PAGES) {
        test(`${name} does not move, ${theme} theme`, async ({ page }) => {
          // The theme as the app stores it (src/lib/theme-storage.ts), read by theme-init.js before the first paint.
          if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
          const shifts = await layoutShiftsOf(page, path);
          expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
          expect(cumulativeShift(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(CLS_LIMIT);
        });
      }

      test(`the list moves nothing as it is scrolled through, down and back, ${theme} theme`, async ({ page }) => {
        if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
        await layoutShiftsOf(page, '/products');
        const cards = page.locator('main ul > li > article');
        // The cards far below the screen are skipped (their item's content-visibility: auto), held at an estimated height…
        await expect(cards.first()).toBeVisible();
        expect(await cards.last().evaluate((card) => card.checkVisibility({ contentVisibilityAuto: true }))).toBe(false);
        // …and drawn as they near it, scrolling down a screen at a time, then jumping to the end and back up.
        const lastDrawnAtTheEnd = await page.evaluate(async () => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await frame();
          }
          const drawn = [...document.querySelectorAll('main ul > li > article')].at(-1)!.checkVisibility({ contentVisibilityAuto: true });
          window.scrollTo(0, 0);
          await frame();
          window.scrollTo(0, document.documentElement.scrollHeight);
          await frame();
          for (let y = window.scrollY; y > 0; y -= 600) {
            window.scrollTo(0, y);
            await frame();
          }
          return drawn;
        });
        expect(lastDrawnAtTheEnd).toBe(true);
        const shifts = await layoutShiftsSoFar(page);
        expect(cumulativeShift(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(CLS_LIMIT);
      });

      for (const { name, cut } of HOME_CUTS) {
        heldPageTest(`home does not move while its HTML is still arriving (${name}), ${theme} theme`, async ({ page, relay }) => {
          if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
          const held = relay.holdNext('/', cut);
          await page.goto('/', { waitUntil: 'commit' });
          const firstPart = await held.sent;
          // The browser has parsed all it was sent, and drawn a frame of it, before the rest comes.
          await expect(page.locator('.swiper-slide')).toHaveCount(firstPart.split('class="swiper-slide"').length - 1);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
          held.release();
          const shifts = await layoutShiftsSoFar(page);
          expect(cumulativeShift(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(CLS_LIMIT);
        });
      }
    }

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });

      test('home does not move, and shows a row of products', async ({ page }) => {
        const shifts = await layoutShiftsOf(page, '/');
        expect(cumulativeShift(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(CLS_LIMIT);
      });
    });
  });
}
