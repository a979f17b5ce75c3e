// The page in the visitor's hands (docs/performance.md, "Takeover and interactions"), in Debian's Chromium in front
// of the photo upstream (20 products with photo-like JPEGs) and of a generated 5,000-product upstream:
// - takeover: from the first paint (FCP) to the app in control (the `app-in-control` mark start-app.tsx sets once
//   hydration has committed), each load in an empty cache, on a desktop profile (no throttling) and on Lighthouse's
//   slow 4G (its DevTools throttling: 562.5 ms request latency, 1,474 kbit/s down, the CPU slowed 4×);
// - interactions: Event Timing (`PerformanceObserver` type `event`, `durationThreshold` 16, grouped by
//   `interactionId`) with the CPU slowed 4× (`Emulation.setCPUThrottlingRate`), each interaction's longest entry
//   (its INP share), split into input delay, processing and presentation delay: every control (typing at 20 and
//   5,000 products, sort, category, the menu, the theme at 20 and 5,000 products, a card, a carousel slide).
//   trace-interaction.mjs traces one of the presses to show where its time goes.
// Part of `npm run bench`; `node scripts/bench/interactions.mjs` runs it alone on the last build
// (BENCH_INTERACTION_RUNS, default 3: loads per figure; BENCH_SERVER_ENTRY measures another build;
// BENCH_INTERACTIONS_ONLY, e.g. `theme,card,takeover`, measures only the figures whose names contain one of those words).
import { envNumber, fmt, loadAverage, median, runAlone, startPhotoUpstream, startUpstream, withServer } from './harness.mjs';

const LARGE_CATALOGUE = 5_000;
/** Every interaction answered within 80 ms with the CPU slowed 4×; the theme switch within 64 (docs/performance.md). */
const INTERACTION_TARGET_MS = 80;
const THEME_TARGET_MS = 64;
const TAKEOVER_TARGET_MS = 300;
const CPU_SLOWDOWN = 4;
/** Set by client/src/app/start-app.tsx once the app has hydrated the page. */
const IN_CONTROL_MARK = 'app-in-control';
const PAGES = ['/', '/products', '/productdetails/1'];
const VIEWPORTS = [
  { name: '375 px', viewport: { width: 375, height: 800 } },
  { name: '1,280 px', viewport: { width: 1280, height: 800 } },
];
/** Lighthouse 12's mobile slow 4G as DevTools throttling applies it (its constants.js `mobileSlow4G`). */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 0.9 * 1024) / 8,
  uploadThroughput: (750 * 0.9 * 1024) / 8,
};

/** A new page in `context`, its CPU slowed `cpu` times and its network throttled to `network`, if given. */
async function openPage(context, { cpu = 1, network } = {}) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  if (network) await cdp.send('Network.enable').then(() => cdp.send('Network.emulateNetworkConditions', network));
  return page;
}

const waitForControl = (page) =>
  page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, IN_CONTROL_MARK, { timeout: 60_000 });

/** One load in an empty cache: first paint, largest paint, the app's request and the app in control (ms from navigation). */
async function takeoverOnce(browser, url, viewport, throttled) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await openPage(context, throttled ? { cpu: CPU_SLOWDOWN, network: SLOW_4G } : {});
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await waitForControl(page);
    return await page.evaluate(async (mark) => {
      const lcp = await new Promise((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? null)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        });
        setTimeout(() => resolve(null), 1_000);
      });
      const app = performance.getEntriesByType('resource').find((entry) => /\/assets\/start-app-/.test(entry.name));
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      return { fcp, lcp, appRequested: app?.startTime ?? null, inControl: performance.getEntriesByName(mark)[0].startTime };
    }, IN_CONTROL_MARK);
  } finally {
    await context.close();
  }
}

/** First paint → the app in control, per page, viewport and profile, `runs` loads each. */
async function measureTakeover(browser, origin, runs, log, report) {
  const profiles = [
    { name: 'desktop profile', throttled: false, settings: VIEWPORTS },
    { name: "Lighthouse's slow 4G, CPU 4×", throttled: true, settings: [VIEWPORTS[0]] },
  ];
  for (const { name: profile, throttled, settings } of profiles) {
    for (const { name, viewport } of settings) {
      for (const path of PAGES) {
        const loads = [];
        for (let run = 0; run < runs; run++) loads.push(await takeoverOnce(browser, origin + path, viewport, throttled));
        const gap = median(loads.map((load) => load.inControl - load.fcp));
        const each = (key) => fmt(median(loads.map((load) => load[key])));
        log(
          `  ${profile}, ${name.padEnd(8)} ${path.padEnd(18)} first paint → app in control ${fmt(gap)} ms (medians of ${runs}: FCP ${each('fcp')}, ` +
            `LCP ${each('lcp')}, app requested ${each('appRequested')}, in control ${each('inControl')} ms; each gap ${loads.map((load) => fmt(load.inControl - load.fcp)).join(', ')})`,
        );
        const figure = `first paint → app in control, ${path} at ${name}, ${profile}, median of ${runs}`;
        report.add(
          'takeover',
          figure,
          `${fmt(gap)} ms (LCP ${each('lcp')} ms)`,
          throttled ? '' : `≤ ${TAKEOVER_TARGET_MS} ms`,
          throttled ? null : gap <= TAKEOVER_TARGET_MS,
        );
      }
    }
  }
}

/** Collects every Event Timing entry of an interaction, from the page's start (buffered). */
function observeInteractions() {
  window.__interactions = [];
  new PerformanceObserver((list) => {
    for (const { interactionId, name, startTime, processingStart, processingEnd, duration } of list.getEntries()) {
      if (interactionId) window.__interactions.push({ interactionId, name, startTime, processingStart, processingEnd, duration });
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
 * processing, presentation }` (an interaction under 16 ms leaves no entry).
 */
async function interactions(page, act) {
  await page.evaluate(() => (window.__interactions.length = 0));
  await act();
  await settle(page);
  const worst = new Map();
  for (const entry of await page.evaluate(() => window.__interactions)) {
    if ((worst.get(entry.interactionId)?.duration ?? -1) < entry.duration) worst.set(entry.interactionId, entry);
  }
  return [...worst.values()].map(({ name, duration, startTime, processingStart, processingEnd }) => ({
    name,
    duration,
    inputDelay: processingStart - startTime,
    processing: processingEnd - processingStart,
    presentation: startTime + duration - processingEnd,
  }));
}

/** The presses measured: the page, the control, and what the press must have done before it counts as done. */
const toProduct = (page) => page.waitForURL(/\/productdetails\//);
export const PRESSES = {
  menu: { path: '/products', locate: (page) => page.getByRole('button', { name: 'Open menu' }) },
  theme: { path: '/products', locate: (page) => page.getByRole('button', { name: /^Switch to \w+ theme$/ }) },
  card: { path: '/products', locate: (page) => page.locator('article a[href^="/productdetails/"]').first(), done: toProduct },
  carousel: { path: '/', locate: (page) => page.locator('.swiper-slide-active a[href^="/productdetails/"]'), done: toProduct },
};

/**
 * One press on a settled page, as a pointer makes it: the target scrolled into view, the pointer moved onto it, pressed
 * and released, one event after the other (the hover's work just before the press, as a thumb's). Trusted input through
 * CDP, not Playwright's `click()`, whose own listeners check where each event lands (4–6 ms of the slowed main thread).
 */
export async function pressOnce(page, { locate, done }) {
  return interactions(page, async () => {
    const target = locate(page);
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error('the target to press is not on the page');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    await done?.(page);
  });
}

/** The worst of an action's interactions (INP counts the worst), or a zero one if none reached 16 ms. */
const worstOf = (list) =>
  list.reduce((worst, entry) => (entry.duration > worst.duration ? entry : worst), {
    name: '< 16 ms',
    duration: 0,
    inputDelay: 0,
    processing: 0,
    presentation: 0,
  });

/** Interactions: each a name and `run(context)`, resolving with its interactions' entries. */
function scenarios(origin, largeOrigin) {
  /** `act(page)` on a slowed page of `url`, closed after. */
  const on = (url, act) => async (context) => {
    const page = await slowedPage(context, url);
    const result = await act(page);
    await page.close();
    return result;
  };
  const typeIn = (at) =>
    on(`${at}/products`, async (page) => {
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.focus();
      return interactions(page, () => box.pressSequentially('jacket', { delay: 120 }));
    });
  /** Arrow Down on a focused menu: a trusted key press that chooses the next option, as a keyboard visitor does. */
  const stepThrough = (label, steps) =>
    on(`${origin}/products`, async (page) => {
      await page.getByRole('combobox', { name: label }).focus();
      const result = [];
      for (let step = 0; step < steps; step++) result.push(worstOf(await interactions(page, () => page.keyboard.press('ArrowDown'))));
      return result;
    });
  const press = (pressed, at = origin) => on(at + pressed.path, (page) => pressOnce(page, pressed));
  return [
    { name: 'search typing, 20 products (worst key of "jacket")', run: typeIn(origin) },
    { name: `search typing, ${fmt(LARGE_CATALOGUE)} products (worst key)`, run: typeIn(largeOrigin) },
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
        worst.push(worstOf(await scenario.run(context).finally(() => context.close())));
      }
      const inp = median(worst.map((entry) => entry.duration));
      const target = scenario.target ?? INTERACTION_TARGET_MS;
      const middle = worst.toSorted((a, b) => a.duration - b.duration)[Math.floor(worst.length / 2)];
      log(
        `  ${viewportName.padEnd(8)} ${scenario.name.padEnd(52)} ${fmt(inp).padStart(4)} ms (median of ${runs}: ${worst.map((entry) => fmt(entry.duration)).join(', ')}; ` +
          `the median one, ${middle.name}: input delay ${fmt(middle.inputDelay)}, processing ${fmt(middle.processing)}, presentation ${fmt(middle.presentation)} ms)`,
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

/** The bench's part: the built server in front of the photo upstream and of a 5,000-product one; `runs` loads a figure. */
export async function measureTakeoverAndInteractions({ browser, log, report }) {
  const runs = envNumber('BENCH_INTERACTION_RUNS', 3);
  const only = (process.env.BENCH_INTERACTIONS_ONLY ?? '').split(',').filter(Boolean);
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

await runAlone(import.meta.url, measureTakeoverAndInteractions, { browser: true });
