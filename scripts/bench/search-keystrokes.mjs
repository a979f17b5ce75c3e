// Search as the visitor types (docs/performance.md, "Search as you type"), in Debian's Chromium on a desktop profile
// (1,280 × 800, no throttling), in front of generated catalogues of 20, 5,000 and 200,000 products (titles end with
// the product's number, so typing a number finds that product first, and each prefix finds another):
// - the last keystroke → the first card is the wanted product and a frame has been painted, a number typed a key
//   every 120 ms (trusted key presses) and pasted (one `input` event carrying it, as a paste sends);
// - how many search requests and /api requests in all (photos included, as the rate limit counts them) each typed
//   number sends;
// - at the largest size, the last key typed into the bar's box → its product suggested first and a frame painted;
// - the server's CPU per search at the largest size: each prefix of fresh numbers asked once over HTTP, as the box
//   asks them, with the server's user + system CPU (/proc) before and after.
// Part of `npm run bench`; `node scripts/bench/search-keystrokes.mjs` runs it alone on the last build
// (BENCH_SERVER_ENTRY measures another build; BENCH_SEARCH_SIZES, e.g. `20,5000`, picks the sizes).
import { cpuSeconds, envNumbers, fmt, get, loadAverage, MB, median, runAlone, startUpstream, withServer } from './harness.mjs';

const SIZES = [20, 5_000, 200_000];
/**
 * Numbers to type, then others to paste, at each size (none asked twice, so no answer comes from the page's cache):
 * each one's prefixes find other products first, so only the whole number shows it first.
 */
const NUMBERS = {
  20: { typed: [12, 17, 19, 14, 16], pasted: [13, 15, 18, 11, 20] },
  5_000: { typed: [4321, 2718, 3141, 1618, 4669], pasted: [3579, 2468, 1357, 4682, 3917] },
  200_000: { typed: [123457, 171828, 31415, 161803, 46692], pasted: [135792, 24680, 191919, 57721, 142857] },
};
/** Fresh numbers whose prefixes the server is asked over HTTP, for its CPU per search. */
const CPU_NUMBERS = [198765, 187654, 176543, 165432, 154321, 143219, 132198, 121987, 119876, 109875];
const KEY_DELAY_MS = 120;
/** Ten letters in one second, a fast typist. */
const WORD_KEY_DELAY_MS = 100;
/** How long no /api request may be in flight before a search's requests are counted as done. */
const QUIET_MS = 500;
const TARGET_MS = 100;
const IN_CONTROL_MARK = 'app-in-control';
const SEARCH = 'input[placeholder="Search products..."]';
const FIRST_CARD = 'article a[href^="/productdetails/"]';
/** The bar's search box (every page) and its first suggestion, named by the product's title. */
const BAR_SEARCH = 'input[aria-label="Search the catalogue"]';
const FIRST_SUGGESTION = '[role="listbox"] [role="option"]';

/**
 * Arms the page: resolves with the ms from the last `input` event the box received to a painted frame whose first
 * `cardSelector` has `attribute` equal to `expected` (null after 10 s). `input` is what both a key press and a paste
 * send the box.
 */
function armFirstCard({ searchSelector, cardSelector, attribute, expected }) {
  const box = document.querySelector(searchSelector);
  let lastInput = null;
  box.addEventListener('input', (event) => (lastInput = event.timeStamp), { capture: true });
  window.__firstCard = new Promise((resolve) => {
    const shown = () => lastInput !== null && document.querySelector(cardSelector)?.getAttribute(attribute) === expected;
    const finish = (ms) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(ms);
    };
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => finish(performance.now() - lastInput)));
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: [attribute] });
    const timer = setTimeout(() => finish(null), 10_000);
  });
}

/**
 * Watches the page's /api requests: `paths` in the order sent, and `quiet()` resolves once none has been in flight
 * for QUIET_MS (10 s at most), so the photos a search brought are counted with it.
 */
function watchApi(page) {
  const paths = [];
  const inFlight = new Set();
  let lastChange = performance.now();
  const isApi = (request) => new URL(request.url()).pathname.startsWith('/api/');
  const onRequest = (request) => {
    if (!isApi(request)) return;
    paths.push(new URL(request.url()).pathname);
    inFlight.add(request);
    lastChange = performance.now();
  };
  const onDone = (request) => {
    if (inFlight.delete(request)) lastChange = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return {
    counts: () => ({ searches: paths.filter((path) => path === '/api/products/search').length, api: paths.length }),
    async quiet() {
      const deadline = performance.now() + 10_000;
      while (performance.now() < deadline && (inFlight.size > 0 || performance.now() - lastChange < QUIET_MS)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}

async function openProducts(context, origin) {
  const page = await context.newPage();
  await page.goto(`${origin}/products`, { waitUntil: 'load', timeout: 60_000 });
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, IN_CONTROL_MARK, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  return page;
}

/** Empties the box and waits until the whole list is back (its first card is product 1) with its photos. */
async function clearBox(page) {
  const api = watchApi(page);
  await page.locator(SEARCH).fill('');
  await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('href') === '/productdetails/1', FIRST_CARD);
  await api.quiet();
}

/** One number typed or pasted: `{ ms, searches, api }`, the last two the requests it sent, photos included. */
async function searchOnce(page, number, mode) {
  await page.evaluate(armFirstCard, {
    searchSelector: SEARCH,
    cardSelector: FIRST_CARD,
    attribute: 'href',
    expected: `/productdetails/${number}`,
  });
  const api = watchApi(page);
  await page.locator(SEARCH).focus();
  if (mode === 'typed') await page.keyboard.type(String(number), { delay: KEY_DELAY_MS });
  else await page.keyboard.insertText(String(number));
  const ms = await page.evaluate(() => window.__firstCard);
  await api.quiet();
  return { ms, ...api.counts() };
}

/** A number typed into the bar's box, a key every KEY_DELAY_MS: ms from the last key to its product suggested first. */
async function suggestOnce(page, product) {
  await page.evaluate(armFirstCard, {
    searchSelector: BAR_SEARCH,
    cardSelector: FIRST_SUGGESTION,
    attribute: 'aria-label',
    expected: product.title,
  });
  await page.locator(BAR_SEARCH).focus();
  await page.keyboard.type(String(product.id), { delay: KEY_DELAY_MS });
  const ms = await page.evaluate(() => window.__firstCard);
  await page.locator(BAR_SEARCH).fill('');
  return ms;
}

/**
 * A ten-letter word typed in a second (the start of a title far down the catalogue, each prefix matching a full
 * page): the requests it sends, searches and photos, as the rate limit counts them.
 */
async function typedWord(page, products) {
  const text = products[Math.floor(products.length * 0.75)].title.toLowerCase().slice(0, 10);
  const api = watchApi(page);
  const started = performance.now();
  await page.locator(SEARCH).focus();
  await page.keyboard.type(text, { delay: WORD_KEY_DELAY_MS });
  const seconds = (performance.now() - started) / 1000;
  // The grid's count for the whole word, before the requests count as done.
  const count = `${products.filter((product) => product.title.toLowerCase().includes(text)).length} of `;
  await page.waitForFunction((prefix) => document.querySelector('[aria-live]')?.textContent?.startsWith(prefix), count);
  await api.quiet();
  await clearBox(page);
  return { text, seconds, ...api.counts() };
}

/** The server's CPU per search: every prefix of CPU_NUMBERS asked once, in typing order, with the browser's encoding. */
async function serverCpuPerSearch(server) {
  const prefixes = CPU_NUMBERS.flatMap((number) => [...String(number)].map((_, end) => String(number).slice(0, end + 1)));
  const paths = [...new Set(prefixes)].map((prefix) => `/api/products/search?q=${prefix}`);
  const before = cpuSeconds(server.child.pid);
  for (const path of paths) await get(`${server.origin}${path}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
  const after = cpuSeconds(server.child.pid);
  return before === null ? null : { ms: ((after - before) * 1000) / paths.length, searches: paths.length };
}

async function measureSize(browser, size, log, report) {
  const options = { pinned: false, ...(size > 100_000 && { env: { UPSTREAM_MAX_BYTES: String(512 * MB) } }) };
  await withServer(startUpstream(size), options, (server, upstream) => measureOn(browser, server, upstream, size, log, report));
}

async function measureOn(browser, server, upstream, size, log, report) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await get(`${server.origin}/api/products/search`, {}, 120_000);
    const largest = size === Math.max(...SIZES);
    // Before the browser asks anything, so no prefix is answered from the server's prepared pages.
    const cpu = largest ? await serverCpuPerSearch(server) : null;
    const page = await openProducts(context, server.origin);
    for (const mode of ['typed', 'pasted']) {
      const runs = [];
      for (const number of NUMBERS[size][mode]) {
        runs.push(await searchOnce(page, number, mode));
        await clearBox(page);
      }
      const ms = median(runs.map((run) => run.ms ?? Infinity));
      const each = runs.map((run) => (run.ms === null ? 'none' : fmt(run.ms))).join(', ');
      const requests = `${fmt(median(runs.map((run) => run.searches)), 1)} searches, ${fmt(median(runs.map((run) => run.api)), 1)} /api requests in all`;
      log(
        `  ${fmt(size).padStart(7)} products, ${mode.padEnd(6)} ${fmt(ms).padStart(4)} ms (median of ${runs.length}: ${each}); per number: ${requests}`,
      );
      report.add(
        'search',
        `${mode === 'typed' ? `last key (a key every ${KEY_DELAY_MS} ms)` : 'pasted number'} → its card first, ${fmt(size)} products, median of ${runs.length}`,
        `${fmt(ms)} ms (${requests} per number)`,
        size >= 5_000 ? `≤ ${TARGET_MS} ms` : '',
        size >= 5_000 ? ms <= TARGET_MS : null,
      );
    }
    if (largest) {
      const suggested = [];
      for (const number of NUMBERS[size].typed) suggested.push(await suggestOnce(page, upstream.products[number - 1]));
      const ms = median(suggested.map((run) => run ?? Infinity));
      const each = suggested.map((run) => (run === null ? 'none' : fmt(run))).join(', ');
      log(
        `  ${fmt(size).padStart(7)} products, the bar's box: its product suggested first ${fmt(ms)} ms (median of ${suggested.length}: ${each})`,
      );
      report.add(
        'search',
        `the bar's box: last key → its product suggested first, ${fmt(size)} products, median of ${suggested.length}`,
        `${fmt(ms)} ms`,
        `≤ ${TARGET_MS} ms`,
        ms <= TARGET_MS,
      );
      const word = await typedWord(page, upstream.products);
      const wordText = `${word.searches} searches, ${word.api} /api requests in all, in ${fmt(word.seconds, 1)} s`;
      log(`  "${word.text}" typed in a second (a key every ${WORD_KEY_DELAY_MS} ms): ${wordText}`);
      report.add('search', `a ${word.text.length}-letter word typed in a second, ${fmt(size)} products`, wordText);
      const text = cpu === null ? 'n/a (no /proc)' : `${fmt(cpu.ms, 1)} ms (${cpu.searches} searches, each a prefix of a number)`;
      log(`  server CPU per search at ${fmt(size)} products: ${text}`);
      report.add('search', `server CPU per search, ${fmt(size)} products`, text);
    }
  } finally {
    await context.close();
  }
}

/** The bench's part: each size in turn, its own upstream and server. */
export async function measureSearchKeystrokes({ browser, log, report, sizes = envNumbers('BENCH_SEARCH_SIZES', SIZES) }) {
  log(`  load average at start: ${loadAverage() ?? 'n/a'}`);
  for (const size of sizes) await measureSize(browser, size, log, report);
  log(`  load average at the end: ${loadAverage() ?? 'n/a'}`);
}

// Alone: `node scripts/bench/search-keystrokes.mjs` (after `npm run build`).
await runAlone(import.meta.url, measureSearchKeystrokes, { browser: true });
