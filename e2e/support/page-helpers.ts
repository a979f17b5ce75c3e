import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Waits out the mobile menu's 300 ms slide (docs/product.md, "Navigation bar") until it rests where it opens: measured
 * mid-slide, its panel is not yet where a visitor sees it, and axe or a press beside it would see the wrong place.
 */
export async function waitForMenuAtRest(menu: Locator): Promise<void> {
  await expect.poll(() => menu.evaluate((nav) => getComputedStyle(nav).transform)).toMatch(/^(none|matrix\(1, 0, 0, 1, 0, 0\))$/);
}

/** The full-screen loading spinner of docs/product.md, "Page hooks": role status, named Loading. */
export function spinner(page: Page): Locator {
  return page.getByRole('status', { name: 'Loading' });
}

/**
 * The product cards of the Products page. Each holds two links (docs/product.md, "Page hooks"): its category badge and
 * the product, `a[href="/productdetails/{id}"]`, named by the title and covering the card.
 */
export function productCards(page: Page): Locator {
  return page.getByRole('main').getByRole('listitem');
}

/** The card of product `id`. */
export function productCard(page: Page, id: number): Locator {
  return productCards(page).filter({ has: page.locator(`a[href="/productdetails/${id}"]`) });
}

/** Titles of the cards, in the order shown. */
export async function cardTitles(page: Page): Promise<string[]> {
  return productCards(page).getByRole('heading').allTextContents();
}

/**
 * Waits until the Products page shows its list (or its empty message) and no spinner, and the app has taken it over
 * (it starts once the lead photos are painted, docs/pages.md), so what the test does next is the app's to answer.
 */
export async function waitForProductsPage(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Our Products', level: 1 })).toBeVisible();
  await expect(productCards(page).first().or(page.getByText('No products found.'))).toBeVisible();
  await expect(spinner(page)).toHaveCount(0);
  await waitForApp(page);
}

/** Waits until Home shows its carousel, started by Swiper (so the app has taken the page over), and no spinner. */
export async function waitForHomePage(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Products Gallery', level: 1 })).toBeVisible();
  await expect(page.locator('.swiper.swiper-initialized .swiper-slide').first()).toBeVisible();
  await expect(spinner(page)).toHaveCount(0);
}

/**
 * Waits until the app has taken over the server's page: React has hydrated every link and form control in its root,
 * so a press is the app's, not the plain HTML's, and what hydrating a control writes (an input's value, its type) is
 * done before a test looks. Begun is not enough: React hydrates in slices, and a test watching the page for changes
 * (theme.spec.ts) saw the filters' inputs written after it began.
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    const isReacts = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
    return (
      root !== null &&
      Object.keys(root).some((key) => key.startsWith('__reactContainer$')) &&
      [...root.querySelectorAll('a, button, input, select, textarea')].every(isReacts)
    );
  });
}

/**
 * Opens `path` inside the running app, as a link does, rather than asking the server for it. The server sends every
 * page whole, with its data; what a page fetches in the browser (the spinner, retries, the requests) happens on such
 * navigations. Starts on a page with no data of its own and waits until the app has taken it over, so the
 * navigation is the app's.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.goto('/no/such/page');
  await waitForApp(page);
  await page.evaluate((target) => {
    history.pushState(null, '', target);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Sets the stored theme before any page script runs (as a returning visitor's browser would have it). */
export async function storeTheme(page: Page, value: string): Promise<void> {
  await page.addInitScript((theme) => {
    // Only on the first document of the test: later reloads must see what the page itself stored.
    if (!sessionStorage.getItem('e2e-theme-seeded')) {
      sessionStorage.setItem('e2e-theme-seeded', '1');
      localStorage.setItem('theme', theme);
    }
  }, value);
}

/**
 * True when the focused element draws a focus indicator: an outline or a box shadow on itself, or an outline on its
 * `::after` (a card's product link draws its ring around the whole card that way).
 */
export async function focusIndicatorOf(page: Page): Promise<{ element: string; visible: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { element: 'body', visible: false };
    const style = getComputedStyle(element);
    const after = getComputedStyle(element, '::after');
    const outline =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      (after.content !== 'none' && after.outlineStyle !== 'none' && parseFloat(after.outlineWidth) > 0);
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const box = element.getBoundingClientRect();
    const onScreen = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0;
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
    return {
      element: `<${element.tagName.toLowerCase()}> ${name}`,
      visible: onScreen && (outline || shadow),
    };
  });
}

/** Runs axe (WCAG 2.x A/AA and best practices) and fails on serious or critical violations, listing them. */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes
        .map((node) => `    ${node.target.join(' ')}  ${node.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`)
        .join('\n'),
  );
  expect(report, `axe: serious/critical violations on ${label}`).toEqual([]);
}

/**
 * Whether a photo loaded and can be drawn: `decode()` settles once it can, and rejects a broken one (naturalWidth
 * cannot tell: a 1×1 photo picked from srcset at a density above 1 is 0 wide). 'decoded', or the rejection's message.
 */
export function decodedPhoto(image: Locator): Promise<string> {
  return image.evaluate((img: HTMLImageElement) =>
    img.decode().then(
      () => 'decoded',
      (error: Error) => error.message,
    ),
  );
}
