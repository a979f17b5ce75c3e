// Lighthouse (12.x: the newest line that runs on Node 20) with its default config, i.e. the mobile preset with
// simulated throttling, driving Debian's Chromium through chrome-launcher.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.mjs';
import { alsoOnExit } from './processes.mjs';

export const LIGHTHOUSE_PAGES = ['/', '/products', '/productdetails/1'];
const PAGE_TIMEOUT_MS = 120_000;

/**
 * Audits each page once. Resolves with `{ path, performance, accessibility, bestPractices, cls }` per page
 * (scores 0–100), or `{ path, error }` for a page Lighthouse could not audit. Throws when Lighthouse or its
 * Chromium cannot start at all.
 */
export async function runLighthouse(origin) {
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
    for (const path of LIGHTHOUSE_PAGES) {
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no result within ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS);
      });
      try {
        const run = lighthouse(origin + path, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        });
        const { lhr } = await Promise.race([run, timeout]);
        if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
        const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
        results.push({
          path,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
          failedAudits: Object.values(lhr.audits)
            .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
            .map((audit) => audit.id),
        });
      } catch (error) {
        results.push({ path, error: error.message });
      } finally {
        clearTimeout(timer);
      }
    }
    return results;
  } finally {
    forget();
    chrome.kill();
  }
}
