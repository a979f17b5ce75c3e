// Takeover (docs/performance.md, "Takeover and interactions"): from the first paint (FCP) to the app in control
// (the `app-in-control` mark start-app.tsx sets once hydration has committed), on a desktop profile (no throttling)
// and on Lighthouse's slow 4G (its DevTools throttling: 562.5 ms request latency, 1,474 kbit/s down, the CPU slowed
// 4×), each load in an empty cache. Measured by interactions.mjs with the interactions, on the same servers.
import { fmt, median } from './harness.mjs';

/** Set by client/src/app/start-app.tsx once the app has hydrated the page. */
const IN_CONTROL_MARK = 'app-in-control';
const PAGES = ['/', '/products', '/productdetails/1'];
export const VIEWPORTS = [
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
export const CPU_SLOWDOWN = 4;
const TAKEOVER_TARGET_MS = 300;

/** A new page in `context`, its CPU slowed `cpu` times and its network throttled to `network`, if given. */
export async function openPage(context, { cpu = 1, network } = {}) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  return page;
}

/** Resolves once the app has taken the page over (start-app.tsx's mark). */
export async function waitForControl(page) {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, IN_CONTROL_MARK, { timeout: 60_000 });
}

/** One load in an empty cache: first paint, largest paint, the app's request and the app in control (ms from navigation). */
async function takeoverOnce(browser, origin, path, viewport, throttled) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await openPage(context, throttled ? { cpu: CPU_SLOWDOWN, network: SLOW_4G } : {});
    await page.goto(origin + path, { waitUntil: 'domcontentloaded', timeout: 60_000 });
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
      return {
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        lcp,
        appRequested: app?.startTime ?? null,
        inControl: performance.getEntriesByName(mark)[0].startTime,
      };
    }, IN_CONTROL_MARK);
  } finally {
    await context.close();
  }
}

/** First paint → the app in control, per page, viewport and profile, `runs` loads each, added to `report`. */
export async function measureTakeover(browser, origin, runs, log, report) {
  const profiles = [
    { name: 'desktop profile', throttled: false, settings: VIEWPORTS },
    { name: "Lighthouse's slow 4G, CPU 4×", throttled: true, settings: [VIEWPORTS[0]] },
  ];
  for (const profile of profiles) {
    for (const { name, viewport } of profile.settings) {
      for (const path of PAGES) {
        const loads = [];
        for (let run = 0; run < runs; run++) loads.push(await takeoverOnce(browser, origin, path, viewport, profile.throttled));
        const gap = median(loads.map((load) => load.inControl - load.fcp));
        const each = (key) => fmt(median(loads.map((load) => load[key])));
        log(
          `  ${profile.name}, ${name.padEnd(8)} ${path.padEnd(18)} first paint → app in control ${fmt(gap)} ms ` +
            `(medians of ${runs}: FCP ${each('fcp')}, LCP ${each('lcp')}, app requested ${each('appRequested')}, in control ${each('inControl')} ms; ` +
            `each gap ${loads.map((load) => fmt(load.inControl - load.fcp)).join(', ')})`,
        );
        const target = profile.throttled ? '' : `≤ ${TAKEOVER_TARGET_MS} ms`;
        report.add(
          'takeover',
          `first paint → app in control, ${path} at ${name}, ${profile.name}, median of ${runs}`,
          `${fmt(gap)} ms (LCP ${each('lcp')} ms)`,
          target,
          profile.throttled ? null : gap <= TAKEOVER_TARGET_MS,
        );
      }
    }
  }
}
