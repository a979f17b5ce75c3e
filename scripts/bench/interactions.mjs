// The page in the visitor's hands (docs/performance.md, "Takeover and interactions"), in Debian's Chromium in front
// of the photo upstream (20 products with photo-like JPEGs) and of a generated 5,000-product upstream:
// - takeover: first paint → the app in control (takeover.mjs);
// - interactions: Event Timing (`PerformanceObserver` type `event`, `durationThreshold` 16, grouped by
//   `interactionId`) with the CPU slowed 4× (`Emulation.setCPUThrottlingRate`), each interaction's longest entry
//   (its INP share), split into input delay, processing and presentation delay: every control (typing at 20 and
//   5,000 products, sort, category, the menu, the theme at 20 and 5,000 products, a card, a carousel slide).
//   trace-interaction.mjs traces one of the presses to show where its time goes.
// Part of `npm run bench`; `node scripts/bench/interactions.mjs` runs it alone on the last build
// (BENCH_INTERACTION_RUNS, default 3: loads per figure; BENCH_SERVER_ENTRY measures another build;
// BENCH_INTERACTIONS_ONLY, e.g. `theme,card,takeover`, measures only the figures whose names contain one of those words).
import { fmt, loadAverage, median, runAlone, startPhotoUpstream, startUpstream, withServer } from './harness.mjs';
import { CPU_SLOWDOWN, measureTakeover, openPage, VIEWPORTS, waitForControl } from './takeover.mjs';

const LARGE_CATALOGUE = 5_000;
/** Every interaction answered within 80 ms with the CPU slowed 4×; the theme switch within 64 (docs/performance.md). */
const INTERACTION_TARGET_MS = 80;
const THEME_TARGET_MS = 64;

/** Collects every Event Timing entry of an interaction, from the page's start (buffered). */
function observeInteractions() {
  window.__interactions = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId) continue;
      const { interactionId, name, startTime, processingStart, processingEnd, duration } = entry;
      window.__interactions.push({ interactionId, name, startTime, processingStart, processingEnd, duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** A page of the app with the CPU slowed, taken over and settled, observing interactions. */
export async function slowedPage(context, url) {
  const page = await openPage(context, { cpu: CPU_SLOWDOWN });
  await page.addInitScript(observeInteractions);
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  await waitForControl(page);
  await page.waitForLoadState('networkidle');
  await settle(page);
  return page;
}

/** Two frames and a quiet moment: what an interaction started is painted and its entries delivered. */
export async function settle(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300)))));
}

/**
 * Runs `act` and answers the interactions it made: per interaction, its longest entry `{ name, duration, inputDelay,
 * processing, presentation }` (an interaction under 16 ms leaves no entry: duration 0).
 */
async function interactions(page, act) {
  await page.evaluate(() => (window.__interactions.length = 0));
  await act();
  await settle(page);
  const entries = await page.evaluate(() => window.__interactions);
  const worst = new Map();
  for (const entry of entries) {
    if ((worst.get(entry.interactionId)?.duration ?? -1) < entry.duration) worst.set(entry.interactionId, entry);
  }
  return [...worst.values()].map((entry) => ({
    name: entry.name,
    duration: entry.duration,
    inputDelay: entry.processingStart - entry.startTime,
    processing: entry.processingEnd - entry.processingStart,
    presentation: entry.startTime + entry.duration - entry.processingEnd,
  }));
}

/**
 * A press as a pointer makes it: the target scrolled into view, then the pointer moved onto it, pressed and released,
 * one event after the other (so the hover's work falls just before the press, as a thumb's does). Trusted input
 * through CDP, without Playwright's `click()`, whose checks that the press lands on the target run listeners of their
 * own in the page for each of its events (4–6 ms of the slowed main thread in the press's frame).
 */
async function pointerPress(page, target) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('the target to press is not on the page');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
}

/** The presses measured: the page, the control, and what the press must have done before it counts as done. */
export const PRESSES = {
  menu: { path: '/products', locate: (page) => page.getByRole('button', { name: 'Open menu' }) },
  theme: { path: '/products', locate: (page) => page.getByRole('button', { name: /^Switch to \w+ theme$/ }) },
  card: {
    path: '/products',
    locate: (page) => page.locator('article a[href^="/productdetails/"]').first(),
    done: (page) => page.waitForURL(/\/productdetails\//),
  },
  carousel: {
    path: '/',
    locate: (page) => page.locator('.swiper-slide-active a[href^="/productdetails/"]'),
    done: (page) => page.waitForURL(/\/productdetails\//),
  },
};

/** One press on a settled page: its interactions (as `interactions` answers them). */
export async function pressOnce(page, { locate, done }) {
  return interactions(page, async () => {
    await pointerPress(page, locate(page));
    await done?.(page);
  });
}

/** The worst of an action's interactions (INP counts the worst), or a zero one if none reached 16 ms. */
function worstOf(list) {
  return list.reduce((worst, entry) => (entry.duration > worst.duration ? entry : worst), {
    name: '< 16 ms',
    duration: 0,
    inputDelay: 0,
    processing: 0,
    presentation: 0,
  });
}

/** Interactions: name → `(context, viewportName) => Promise<entry[] per interaction>` (null where it has no meaning). */
function scenarios(origin, largeOrigin) {
  const typeIn = (url) => async (context) => {
    const page = await slowedPage(context, url);
    const box = page.getByRole('searchbox', { name: 'Search products' });
    await box.focus();
    const result = await interactions(page, () => box.pressSequentially('jacket', { delay: 120 }));
    await page.close();
    return result;
  };
  /** Arrow Down on a focused menu: a trusted key press that chooses the next option, as a keyboard visitor does. */
  const stepThrough = (label, steps) => async (context) => {
    const page = await slowedPage(context, `${origin}/products`);
    const menu = page.getByRole('combobox', { name: label });
    await menu.focus();
    const result = [];
    for (let step = 0; step < steps; step++) {
      result.push(worstOf(await interactions(page, () => page.keyboard.press('ArrowDown'))));
    }
    await page.close();
    return result;
  };
  const press =
    (pressed, at = origin) =>
    async (context) => {
      const page = await slowedPage(context, at + pressed.path);
      const result = await pressOnce(page, pressed);
      await page.close();
      return result;
    };
  return [
    { name: 'search typing, 20 products (worst key of "jacket")', run: typeIn(`${origin}/products`) },
    { name: `search typing, ${fmt(LARGE_CATALOGUE)} products (worst key)`, run: typeIn(`${largeOrigin}/products`) },
    { name: 'each sort (worst of 3 Arrow Downs)', run: stepThrough('Sort products', 3) },
    { name: 'each category (worst of 4 Arrow Downs)', run: stepThrough('Filter by category', 4) },
    { name: 'menu opens', onlyAt: '375 px', run: press(PRESSES.menu) },
    { name: 'theme switch, 20 products', target: THEME_TARGET_MS, run: press(PRESSES.theme) },
    { name: `theme switch, ${fmt(LARGE_CATALOGUE)} products`, target: THEME_TARGET_MS, run: press(PRESSES.theme, largeOrigin) },
    { name: 'card → product page', run: press(PRESSES.card) },
    { name: 'carousel slide → product page', run: press(PRESSES.carousel) },
  ];
}

async function measureInteractions(browser, origin, largeOrigin, runs, log, report, wanted) {
  for (const { name: viewportName, viewport } of VIEWPORTS) {
    for (const scenario of scenarios(origin, largeOrigin)) {
      if ((scenario.onlyAt && scenario.onlyAt !== viewportName) || !wanted(scenario.name)) continue;
      const worst = [];
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext({ viewport });
        try {
          worst.push(worstOf(await scenario.run(context)));
        } finally {
          await context.close();
        }
      }
      const inp = median(worst.map((entry) => entry.duration));
      const target = scenario.target ?? INTERACTION_TARGET_MS;
      const middle = [...worst].sort((a, b) => a.duration - b.duration)[Math.floor(worst.length / 2)];
      log(
        `  ${viewportName.padEnd(8)} ${scenario.name.padEnd(52)} ${fmt(inp).padStart(4)} ms ` +
          `(median of ${runs}: ${worst.map((entry) => fmt(entry.duration)).join(', ')}; the median one, ${middle.name}: ` +
          `input delay ${fmt(middle.inputDelay)}, processing ${fmt(middle.processing)}, presentation ${fmt(middle.presentation)} ms)`,
      );
      report.add(
        'interactions',
        `${scenario.name} at ${viewportName}, CPU ${CPU_SLOWDOWN}× slower, median of ${runs}`,
        `${fmt(inp)} ms`,
        `≤ ${target} ms`,
        inp <= target,
      );
    }
  }
}

/**
 * The bench's part: starts the built server in front of the photo upstream and of a generated 5,000-product one,
 * then measures the takeover and the interactions, `runs` loads per figure.
 */
export async function measureTakeoverAndInteractions({ browser, log, report, runs = 3, only = [] }) {
  const wanted = (name) => only.length === 0 || only.some((word) => name.includes(word));
  await withServer(startPhotoUpstream(), { pinned: false }, (server) =>
    withServer(startUpstream(LARGE_CATALOGUE), { pinned: false }, async (largeServer) => {
      log(`  load average at start: ${loadAverage() ?? 'n/a'}`);
      if (wanted('takeover')) await measureTakeover(browser, server.origin, runs, log, report);
      await measureInteractions(browser, server.origin, largeServer.origin, runs, log, report, wanted);
      log(`  load average at the end: ${loadAverage() ?? 'n/a'}`);
    }),
  );
}

// Alone: `node scripts/bench/interactions.mjs` (after `npm run build`).
await runAlone(
  import.meta.url,
  (parts) =>
    measureTakeoverAndInteractions({
      ...parts,
      runs: Number(process.env.BENCH_INTERACTION_RUNS) || 3,
      only: (process.env.BENCH_INTERACTIONS_ONLY ?? '').split(',').filter(Boolean),
    }),
  { browser: true },
);
