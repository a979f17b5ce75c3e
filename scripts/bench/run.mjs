// `npm run bench`: builds, then measures the built site and prints every figure next to its target. It never fails
// because a machine is slow: a missed target is reported as MISS, and a part that cannot run (no Chromium, no wrk)
// says why and the rest goes on. It exits non-zero only when it cannot run at all (the build fails, or the built
// server does not start). BENCH_SECONDS and BENCH_ROUNDS shorten the load parts; LARGE_CATALOGUE_SIZES and
// BENCH_SEARCH_SIZES choose the large catalogue's and the search's sizes, as when those parts run alone.
import { spawnSync } from 'node:child_process';
import {
  describeMachine,
  envNumber,
  fmt,
  killChildrenOnExit,
  launchChromium,
  loadAverage,
  log,
  median,
  PINNING,
  Report,
  ROOT,
  startBuiltServer,
  stopAllProcesses,
  writeReport,
} from './harness.mjs';

const SECONDS = envNumber('BENCH_SECONDS', 6);
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const STARTS = 5;
const report = new Report();
const startedAt = new Date();

/** A part that fails is reported as such, and the bench goes on with the next one. */
async function part(title, area, measure) {
  log(`\n## ${title}`);
  const started = performance.now();
  try {
    await measure();
  } catch (error) {
    log(`  could not run: ${error.message}`);
    report.add(area, 'could not run', error.message.split('\n')[0]);
  }
  log(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

killChildrenOnExit();
const machine = describeMachine();
const loadAtStart = loadAverage();
const settings =
  `API: ${ROUNDS} rounds × ${SECONDS} s per contender (after a 2 s warm-up), 50 connections, no pipelining, ` +
  (PINNING ? 'server on core 0, wrk (one thread) on core 1' : 'not pinned (needs 2 cores and taskset)');
log(`# npm run bench\n\nMachine: ${machine}\nSettings: ${settings}\nLoad average at start: ${loadAtStart ?? 'n/a'}`);
if (loadAtStart > 0.5) log('  warning: other work is running on this machine; every figure below is lower, and noisier, than it can do');

log('\n## Build');
const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  console.error('The bench cannot run: `npm run build` failed');
  process.exit(1);
}
log(`  built in ${(performance.now() / 1000).toFixed(1)} s`);

// These load our workspaces (the server's render, the sort rule) from their built `dist`: only now do they exist.
const { measureApi } = await import('./api-throughput.mjs');
const { measurePages } = await import('./pages.mjs');
const { measureRouteBudgets, measureLighthouseScores } = await import('./page-budgets.mjs');
const { measureProductPhotos } = await import('./images.mjs');
const { measureTakeoverAndInteractions } = await import('./interactions.mjs');
const { measureSearchKeystrokes } = await import('./search-keystrokes.mjs');
const { measureFacetQueries } = await import('./facets-queries.mjs');
const { runLargeCatalogueServer } = await import('./large-catalogue-server.mjs');
const { runLargeCatalogue } = await import('./large-catalogue-browser.mjs');

let browser;
const parts = { log, report, seconds: SECONDS, rounds: ROUNDS };
const withBrowser = (measure) => async () => measure({ ...parts, browser: (browser ??= await launchChromium()) });
try {
  await part('Start-up: spawn to first 200 on /healthz (embedded catalogue)', 'start-up', async () => {
    const times = [];
    for (let start = 0; start < STARTS; start++) {
      const server = await startBuiltServer().catch((error) => {
        console.error(`The bench cannot run: the built server does not start: ${error.message}`);
        process.exit(1);
      });
      times.push(server.startupMs);
      await server.stop();
    }
    const ms = median(times);
    log(`  ${times.map((time) => `${time.toFixed(0)} ms`).join(', ')}; median ${ms.toFixed(0)} ms`);
    report.add('start-up', `spawn → /healthz 200, median of ${STARTS}`, `${fmt(ms)} ms`, '≤ 1,000 ms', ms <= 1000);
  });
  await part('API: cached GET /api/products at 20, 1,000 and 5,000 products', 'API', () =>
    measureApi({ ...parts, counts: [20, 1000, 5000] }),
  );
  await part('Pages: a cached page hit against raw node:http, the CPU of a cold render', 'pages', () => measurePages(parts));
  await part('Page budgets: gzip JavaScript a route loads (Chromium, empty cache)', 'page budget', withBrowser(measureRouteBudgets));
  await part('Lighthouse (mobile preset, embedded catalogue)', 'Lighthouse', () => measureLighthouseScores(parts));
  await part(
    'Product photos in front of the photo upstream (JPEGs of 370–1,049 × 333–1,500 px, 15–230 KB)',
    'photos',
    withBrowser(measureProductPhotos),
  );
  await part(
    'Takeover and interactions: first paint → app in control; Event Timing with the CPU 4× slower',
    'interactions',
    withBrowser(measureTakeoverAndInteractions),
  );
  await part(
    'Search as you type: the last key → its card first, at 20, 5,000 and 200,000 products',
    'search',
    withBrowser(measureSearchKeystrokes),
  );
  await part('Filters and suggestions: their SQL at 200,000 products, each question a first ask', 'filters', () =>
    measureFacetQueries(parts),
  );
  await part('Large catalogue on the server: 50,000 and 200,000 products', 'large catalogue, server', () => runLargeCatalogueServer(parts));
  await part('Large catalogue in the browser: /products with 50,000 products', 'large catalogue', withBrowser(runLargeCatalogue));
  await browser?.close();
} finally {
  await stopAllProcesses();
}

const load = `load average ${loadAtStart ?? 'n/a'} at start, ${loadAverage() ?? 'n/a'} at the end`;
const durationSeconds = (Date.now() - startedAt.getTime()) / 1000;
const summary = report.markdown({ machine: `${machine}; ${load}`, command: 'npm run bench', settings, startedAt, durationSeconds });
writeReport(`${ROOT}.bench/latest.md`, summary);
log(`\n## Summary (also in .bench/latest.md)\n\n${summary}`);
