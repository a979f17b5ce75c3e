import { expect, test } from './fixtures/test.ts';
import { cumulativeShift, layoutShiftsOf } from './support/layout-shift.ts';

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
