// What a page costs a browser, in Debian's Chromium: the gzip JavaScript each route downloads and the product images
// it fetches (what it actually fetched, however the build splits its chunks and whatever its srcset chose), and
// Lighthouse 12 (its default config: the mobile preset, simulated throttling) through chrome-launcher.
import { gzipSync } from 'node:zlib';
import { alsoOnExit, CHROMIUM_ARGS, CHROMIUM_PATH, fmt, median, startBuiltServer } from './harness.mjs';

export const ROUTE_BUDGETS = [
  { path: '/', budgetKb: 150 },
  { path: '/products', budgetKb: 120 },
];
export const LIGHTHOUSE_PAGES = ['/', '/products', '/productdetails/1'];
/** The viewports image bytes are measured at: a phone (its usual 2× screen) and a desktop. */
export const IMAGE_VIEWPORTS = [
  { name: '375 px (2× phone)', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true },
  { name: '1280 px (1× desktop)', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
];

/** `origin + path` loaded in a fresh context (empty cache) until the network is idle: the responses `wanted` keeps. */
async function fetched(browser, origin, path, wanted, { viewport, deviceScaleFactor, isMobile } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch: isMobile });
  try {
    const page = await context.newPage();
    const kept = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === origin && response.status() === 200 && wanted(url, response)) kept.push(response);
    });
    const answer = await page.goto(origin + path, { waitUntil: 'networkidle', timeout: 60_000 });
    if (answer?.status() !== 200) throw new Error(`${path} answered ${answer?.status() ?? 'nothing'}`);
    return await Promise.all(
      kept.map(async (response) => ({
        url: new URL(response.url()),
        contentType: response.headers()['content-type'],
        body: await response.body(),
      })),
    );
  } finally {
    await context.close();
  }
}

/** The scripts a route fetched from the site, each with its gzip size (zlib's default level, what `compression()` sends). */
export async function measureRouteScripts(browser, origin, path) {
  const isScript = (url, response) => response.request().resourceType() === 'script' || url.pathname.endsWith('.js');
  const scripts = await fetched(browser, origin, path, isScript);
  return scripts.map(({ url, body }) => ({ path: url.pathname, bytes: body.length, gzipBytes: gzipSync(body).length }));
}

/** The product images a route downloads on first view, without scrolling, at one of IMAGE_VIEWPORTS. */
export async function measureRouteImages(browser, origin, path, setting) {
  const images = await fetched(browser, origin, path, (url) => /^\/api\/products\/\d+\/image$/.test(url.pathname), setting);
  return images.map(({ url, contentType, body }) => ({ path: url.pathname + url.search, contentType, bytes: body.length }));
}

/** The bench's part: each route's JavaScript against its budget, on the embedded catalogue. */
export async function measureRouteBudgets({ browser, log, report }) {
  const server = await startBuiltServer();
  try {
    for (const { path, budgetKb } of ROUTE_BUDGETS) {
      const scripts = await measureRouteScripts(browser, server.origin, path);
      const kb = scripts.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024;
      log(`  ${path.padEnd(10)} ${fmt(kb, 1)} KB gzip in ${scripts.length} files (budget ${budgetKb} KB)`);
      for (const script of scripts) log(`      ${script.path.padEnd(48)} ${fmt(script.gzipBytes / 1024, 1).padStart(6)} KB`);
      report.add('page budget', `JS for ${path} (gzip)`, `${fmt(kb, 1)} KB in ${scripts.length} files`, `≤ ${budgetKb} KB`, kb <= budgetKb);
    }
  } finally {
    await server.stop();
  }
}

/** The bench's part: Lighthouse's scores and CLS on the embedded catalogue, once per page. */
export async function measureLighthouseScores({ log, report }) {
  const server = await startBuiltServer();
  try {
    for (const result of await runLighthouse(server.origin)) {
      if (result.error) {
        log(`  ${result.path}: could not audit: ${result.error}`);
        report.add('Lighthouse', result.path, `could not audit: ${result.error}`);
        continue;
      }
      const { path, performance, accessibility, bestPractices, cls, failedAudits } = result;
      log(
        `  ${path.padEnd(18)} performance ${performance}, accessibility ${accessibility}, best practices ${bestPractices}, CLS ${fmt(cls, 3)}` +
          (failedAudits.length ? `; failed: ${failedAudits.join(', ')}` : ''),
      );
      report.add('Lighthouse', `${path} performance`, performance, '≥ 95', performance >= 95);
      report.add('Lighthouse', `${path} accessibility`, accessibility, '100', accessibility === 100);
      report.add('Lighthouse', `${path} best practices`, bestPractices, '≥ 95', bestPractices >= 95);
      report.add('Lighthouse', `${path} CLS`, fmt(cls, 3), '≤ 0.02', cls <= 0.02);
    }
  } finally {
    await server.stop();
  }
}

const PAGE_TIMEOUT_MS = 120_000;
/** Lighthouse's LCP breakdown (the `largest-contentful-paint-element` audit's phase table), by our key. */
const LCP_PHASES = { ttfb: 'TTFB', loadDelay: 'Load Delay', loadTime: 'Load Time', renderDelay: 'Render Delay' };

/**
 * Audits each of `paths` `runs` times (its score moves by several points from run to run on a shared machine, so
 * medians count). Resolves with, per page, `{ path, performance, lcpMs, cls, tbtMs, accessibility, bestPractices,
 * lcpPhases, lcpElement, failedAudits, runs }`: medians of the runs that completed, the LCP breakdown and element of
 * the run with the median LCP, the binary audits failed in any run, each run's figures; or `{ path, error }`.
 */
export async function runLighthouse(origin, { runs = 1, paths = LIGHTHOUSE_PAGES } = {}) {
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import('lighthouse'), import('chrome-launcher')]);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  // chrome-launcher starts Chromium detached: it would outlive an interrupted bench without this.
  const forget = alsoOnExit(() => chrome.kill());
  try {
    const results = [];
    for (const path of paths) {
      const audits = [];
      let lastError;
      for (let run = 0; run < runs; run++)
        await auditOnce(lighthouse, origin + path, chrome.port).then(
          (audit) => audits.push(audit),
          (error) => (lastError = error),
        );
      if (audits.length === 0) {
        results.push({ path, error: lastError.message });
        continue;
      }
      const middle = (key) => median(audits.map((audit) => audit[key]));
      // The phases of one run, so they add up to its LCP: the run whose LCP is the median (or just above it).
      const { lcpPhases, lcpElement } = audits.toSorted((a, b) => (a.lcpMs ?? Infinity) - (b.lcpMs ?? Infinity))[
        Math.floor(audits.length / 2)
      ];
      results.push({
        path,
        ...Object.fromEntries(['performance', 'lcpMs', 'cls', 'tbtMs', 'accessibility', 'bestPractices'].map((key) => [key, middle(key)])),
        lcpPhases,
        lcpElement,
        failedAudits: [...new Set(audits.flatMap((audit) => audit.failedAudits))],
        runs: audits.map(({ performance, lcpMs, tbtMs }) => ({ performance, lcpMs, tbtMs })),
      });
    }
    return results;
  } finally {
    forget();
    chrome.kill();
  }
}

async function auditOnce(lighthouse, url, port) {
  let timer;
  const timeout = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no result within ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS)),
  );
  try {
    const options = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] };
    const { lhr } = await Promise.race([lighthouse(url, options), timeout]);
    if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
    const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
    const [elementTable, phaseTable] = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
    const timing = (label) => phaseTable?.items.find((item) => item.phase === label)?.timing ?? null;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? null,
      lcpElement: elementTable?.items[0]?.node?.selector ?? null,
      lcpPhases: Object.fromEntries(Object.entries(LCP_PHASES).map(([key, label]) => [key, timing(label)])),
      failedAudits: Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id),
    };
  } finally {
    clearTimeout(timer);
  }
}
