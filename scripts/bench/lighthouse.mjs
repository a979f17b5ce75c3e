// Lighthouse (12.x: the newest line that runs on Node 20) with its default config, i.e. the mobile preset with
// simulated throttling, driving Debian's Chromium through chrome-launcher.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.mjs';
import { alsoOnExit } from './processes.mjs';
import { median } from './report.mjs';

export const LIGHTHOUSE_PAGES = ['/', '/products', '/productdetails/1'];
const PAGE_TIMEOUT_MS = 120_000;
/** Lighthouse's LCP breakdown (the `largest-contentful-paint-element` audit's phase table), by our key. */
const LCP_PHASES = [
  ['ttfb', 'TTFB'],
  ['loadDelay', 'Load Delay'],
  ['loadTime', 'Load Time'],
  ['renderDelay', 'Render Delay'],
];

/**
 * Audits each page of `paths` (default LIGHTHOUSE_PAGES) `runs` times (its score moves by several points from one run to the next on a shared
 * machine, so the figures that count are medians). Resolves with, per page, `{ path, performance, lcpMs, cls,
 * tbtMs, accessibility, bestPractices, lcpPhases, lcpElement, failedAudits, runs }`: medians of the runs that completed
 * (scores 0–100), Lighthouse's LCP breakdown `{ ttfb, loadDelay, loadTime, renderDelay }` (ms) and LCP element of the
 * run with the median LCP, the binary audits that failed in any run, and each run's `{ performance, lcpMs }`; or
 * `{ path, error }` when no run completed. Throws when Lighthouse or its Chromium cannot start at all.
 */
export async function runLighthouse(origin, { runs = 1, paths = LIGHTHOUSE_PAGES } = {}) {
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import('lighthouse'), import('chrome-launcher')]);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  // chrome-launcher starts Chromium detached, so it would outlive an interrupted bench without this.
  const forget = alsoOnExit(() => chrome.kill());
  try {
    const results = [];
    for (const path of paths) {
      const audits = [];
      let lastError;
      for (let run = 0; run < runs; run++) {
        try {
          audits.push(await auditOnce(lighthouse, origin + path, chrome.port));
        } catch (error) {
          lastError = error;
        }
      }
      if (audits.length === 0) {
        results.push({ path, error: lastError.message });
        continue;
      }
      const middle = (key) => median(audits.map((audit) => audit[key]));
      results.push({
        path,
        performance: middle('performance'),
        lcpMs: middle('lcpMs'),
        cls: middle('cls'),
        tbtMs: middle('tbtMs'),
        accessibility: middle('accessibility'),
        bestPractices: middle('bestPractices'),
        // The phases of one run, so they add up to its LCP: the run whose LCP is the median (or just above it).
        ...pick(medianRun(audits), ['lcpPhases', 'lcpElement']),
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
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS);
  });
  try {
    const run = lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    const { lhr } = await Promise.race([run, timeout]);
    if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
    const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? null,
      ...lcpBreakdown(lhr.audits['largest-contentful-paint-element']),
      failedAudits: Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The LCP element and the time in each phase of its paint, from the audit's two tables (element, then phases). */
function lcpBreakdown(audit) {
  const [elementTable, phaseTable] = audit?.details?.items ?? [];
  const timing = (label) => phaseTable?.items.find((item) => item.phase === label)?.timing ?? null;
  return {
    lcpElement: elementTable?.items[0]?.node?.selector ?? null,
    lcpPhases: Object.fromEntries(LCP_PHASES.map(([key, label]) => [key, timing(label)])),
  };
}

/** The run whose LCP is the median of the runs' (the upper middle one of an even number). */
function medianRun(audits) {
  const sorted = [...audits].sort((a, b) => (a.lcpMs ?? Infinity) - (b.lcpMs ?? Infinity));
  return sorted[Math.floor(sorted.length / 2)];
}

function pick(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}
