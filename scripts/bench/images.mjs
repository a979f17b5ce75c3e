// Product photos, measured in front of the photo upstream (the upstream double serving photo-like JPEGs of the
// real upstream's sizes: 370–1,049 × 333–1,500 px, 15–230 KB): resize timings cold and warm, variant sizes,
// image bytes per page at a phone's and a desktop's width, and Lighthouse on the three pages (median of 3).
// Part of `npm run bench`; `node scripts/bench/images.mjs` runs it alone on the last build, and with
// BENCH_SERVER_ENTRY (harness.mjs) on another build, e.g. an older commit's, for before/after figures.
// Node loads the upstream double from the testing workspace's built `dist`: import this after `npm run build`.
import { envNumber, get, get200, median, runAlone, startPhotoUpstream, withServer } from './harness.mjs';
import { IMAGE_VIEWPORTS, LIGHTHOUSE_PAGES, measureRouteImages, runLighthouse } from './page-budgets.mjs';

/** What Chromium sends for an image: it takes AVIF. */
const CHROMIUM_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const PHOTOS = 20;
/** The largest photo, 1,049 × 1,500 (testing/src/photos.ts). */
const LARGEST = 1;
const KB = 1024;
/** Every page's largest paint on Lighthouse's mobile profile, the real photos included (docs/performance.md). */
const LCP_TARGET_MS = 1_600;

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value) => (value === null ? 'n/a' : `${value.toFixed(0)} ms`);

/**
 * Runs every measurement against a fresh built server in front of a fresh photo upstream, printing each figure
 * with `log` and adding it to `report` with its target. BENCH_LIGHTHOUSE_RUNS (3): audits per page;
 * BENCH_PHOTOS=lighthouse: only those.
 */
export async function measureProductPhotos({ browser, log, report }) {
  const lighthouseRuns = envNumber('BENCH_LIGHTHOUSE_RUNS', 3);
  const lighthouseOnly = process.env.BENCH_PHOTOS === 'lighthouse';
  const photos = startPhotoUpstream();
  if (!lighthouseOnly) {
    await withServer(photos, {}, async ({ origin }) => {
      await measureVariants(origin, log, report);
      await measurePageImages(browser, origin, log, report);
    });
  }
  // A fresh server: Lighthouse meets cold variants on its first run, as a first visitor would, and warm ones after.
  await withServer(lighthouseOnly ? photos : startPhotoUpstream(), {}, ({ origin }) =>
    measureLighthouse(origin, lighthouseRuns, log, report),
  );
}

/** One timed GET of an image URL, by default as Chromium would ask for it. */
async function timedGet(url, accept = CHROMIUM_ACCEPT) {
  const started = performance.now();
  const response = await get(url, { accept }, 30_000);
  return { ms: performance.now() - started, response };
}

/**
 * Cold: the first request for a variant, with the product and its original already cached, so the time is the
 * resize and encode (plus one local HTTP exchange). Warm: the same request again, which must be a cache hit.
 */
async function measureVariants(origin, log, report) {
  const add = report.add.bind(report, 'photos');
  for (let id = 1; id <= PHOTOS; id++) await get200(`${origin}/api/products/${id}/image`, {}, 30_000);
  const probe = await get(`${origin}/api/products/${PHOTOS}/image?w=160`, { accept: CHROMIUM_ACCEPT }, 30_000);
  if (probe.headers['content-type'] !== 'image/avif') {
    log(
      `  no variants: this build answers ?w= with ${probe.status} ${probe.headers['content-type']} (the original); resize figures skipped`,
    );
    return;
  }
  // The largest photo in every format at three widths, each made for the first time here.
  const largest = await get(`${origin}/api/products/${LARGEST}/image`, {}, 30_000);
  log(`  photo ${LARGEST} (1,049 × 1,500): original ${kb(largest.body.length)} ${largest.headers['content-type']}`);
  let largestColdMs;
  for (const [format, accept] of [
    ['AVIF', CHROMIUM_ACCEPT],
    ['WebP', 'image/webp,*/*'],
    ['JPEG', '*/*'],
  ]) {
    const sizes = [];
    for (const width of [320, 640, 1280]) {
      const { ms: coldMs, response } = await timedGet(`${origin}/api/products/${LARGEST}/image?w=${width}`, accept);
      sizes.push(`${width} px ${kb(response.body.length)} in ${ms(coldMs)}`);
      if (width === 320 && format === 'AVIF') largestColdMs = coldMs;
      if (width === 320 && format !== 'JPEG') {
        add(
          `320 px ${format} of the 1,049 × 1,500 photo`,
          `${kb(response.body.length)}, cold ${ms(coldMs)}`,
          '≤ 30 KB',
          response.body.length <= 30 * KB,
        );
      }
    }
    log(`    ${format.padEnd(4)} ${sizes.join('; ')} (cold)`);
  }

  // Every photo's 320 px AVIF: cold (the largest one's was made above), then warm.
  const cold = [largestColdMs];
  for (let id = 1; id <= PHOTOS; id++) {
    if (id !== LARGEST) cold.push((await timedGet(`${origin}/api/products/${id}/image?w=320`)).ms);
  }
  const warm = [];
  let hits = 0;
  for (let id = 1; id <= PHOTOS; id++) {
    const again = await timedGet(`${origin}/api/products/${id}/image?w=320`);
    warm.push(again.ms);
    if (again.response.headers['x-cache'] === 'HIT') hits++;
  }
  log(
    `  320 px AVIF of each of the ${PHOTOS} photos: cold median ${ms(median(cold))}, slowest ${ms(Math.max(...cold))}; ` +
      `warm median ${ms(median(warm))}, ${hits} of ${PHOTOS} X-Cache: HIT`,
  );
  add(
    `cold 320 px variant (resize + encode), median of ${PHOTOS} photos`,
    `${ms(median(cold))}, slowest ${ms(Math.max(...cold))}`,
    '≤ 150 ms',
    Math.max(...cold) <= 150,
  );
  add('warm variant: a cache hit', `${hits} of ${PHOTOS} HIT, median ${ms(median(warm))}`, `${PHOTOS} of ${PHOTOS} HIT`, hits === PHOTOS);
}

/** Image bytes each page downloads on first view (no scrolling), at a phone's and a desktop's width. */
async function measurePageImages(browser, origin, log, report) {
  const add = report.add.bind(report, 'photos');
  for (const setting of IMAGE_VIEWPORTS) {
    for (const path of LIGHTHOUSE_PAGES) {
      const images = await measureRouteImages(browser, origin, path, setting);
      const bytes = images.reduce((sum, image) => sum + image.bytes, 0);
      const types = [...new Set(images.map((image) => image.contentType))].join(', ');
      log(`  ${setting.name.padEnd(20)} ${path.padEnd(18)} ${kb(bytes).padStart(9)} in ${images.length} images (${types || 'none'})`);
      const budget = path === '/products' && setting.viewport.width === 375 ? '≤ 150 KB' : '';
      add(
        `image bytes on first view, ${path} at ${setting.name}`,
        `${kb(bytes)} in ${images.length} images`,
        budget,
        budget ? bytes <= 150 * KB : null,
      );
    }
  }
}

async function measureLighthouse(origin, runs, log, report) {
  const add = report.add.bind(report, 'photos');
  for (const result of await runLighthouse(origin, { runs })) {
    if (result.error) {
      log(`  ${result.path}: could not audit: ${result.error}`);
      add(`Lighthouse ${result.path}`, `could not audit: ${result.error}`);
      continue;
    }
    const each = result.runs.map((run) => `${run.performance} (LCP ${ms(run.lcpMs)}, TBT ${ms(run.tbtMs)})`).join(', ');
    const { ttfb, loadDelay, loadTime, renderDelay } = result.lcpPhases;
    log(
      `  Lighthouse ${result.path.padEnd(18)} performance ${result.performance}, LCP ${ms(result.lcpMs)}, TBT ${ms(result.tbtMs)}, ` +
        `CLS ${result.cls?.toFixed(3) ?? 'n/a'}, accessibility ${result.accessibility}, best practices ${result.bestPractices} ` +
        `(medians of ${result.runs.length}: ${each})` +
        (result.failedAudits.length ? `; failed: ${result.failedAudits.join(', ')}` : ''),
    );
    log(
      `    LCP breakdown (the median run): TTFB ${ms(ttfb)}, load delay ${ms(loadDelay)}, load time ${ms(loadTime)}, ` +
        `render delay ${ms(renderDelay)}; element ${result.lcpElement}`,
    );
    add(`Lighthouse ${result.path} performance, median of ${result.runs.length}`, result.performance, '≥ 98', result.performance >= 98);
    add(
      `Lighthouse ${result.path} LCP, median of ${result.runs.length}`,
      ms(result.lcpMs),
      `≤ ${LCP_TARGET_MS.toLocaleString('en')} ms`,
      result.lcpMs <= LCP_TARGET_MS,
    );
    add(
      `Lighthouse ${result.path} Total Blocking Time, median of ${result.runs.length}`,
      ms(result.tbtMs),
      '≤ 150 ms',
      result.tbtMs <= 150,
    );
    add(
      `Lighthouse ${result.path} LCP breakdown: TTFB / load delay / load time / render delay`,
      [ttfb, loadDelay, loadTime, renderDelay].map(ms).join(' / '),
    );
  }
}

await runAlone(import.meta.url, measureProductPhotos, { browser: true });
