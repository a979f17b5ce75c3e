// `npm run bench`: builds, then measures the built site and prints every figure next to its target. It never
// fails because a machine is slow: a missed target is reported as MISS, and a part that cannot run (no
// Chromium, no Lighthouse) says why and the rest goes on. It exits non-zero only when it cannot run at all
// (the build fails, or the built server does not start).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './browser.mjs';
import { startBuiltServer } from './built-server.mjs';
import { runLighthouse } from './lighthouse.mjs';
import { CONNECTIONS, LOAD_GENERATOR } from './load.mjs';
import { measureRouteScripts, ROUTE_BUDGETS } from './page-budgets.mjs';
import { killChildrenOnExit, PINNING, stopAllProcesses, stopProcess } from './processes.mjs';
import { describeMachine, fmt, loadAverage, median, Report, writeReport } from './report.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = positiveInteger('BENCH_SECONDS', 6);
const ROUNDS = positiveInteger('BENCH_ROUNDS', 3);
const WARMUP_SECONDS = 2;
const STARTS = 5;

const log = (line = '') => console.log(line);
const report = new Report();
const startedAt = new Date();
const started = performance.now();

function positiveInteger(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function cannotRun(reason) {
  console.error(`The bench cannot run: ${reason}`);
  process.exit(1);
}

/** A part that fails is reported as such, and the bench goes on with the next one. */
async function part(title, area, measure) {
  log(`\n## ${title}`);
  const partStarted = performance.now();
  try {
    await measure();
  } catch (error) {
    log(`  could not run: ${error.message}`);
    report.add(area, 'could not run', error.message.split('\n')[0]);
  }
  log(`  (${((performance.now() - partStarted) / 1000).toFixed(0)} s)`);
}

killChildrenOnExit();
const machine = describeMachine();
const loadAtStart = loadAverage();
const settings =
  `API: ${ROUNDS} rounds × ${SECONDS} s per contender (after ${WARMUP_SECONDS} s warm-up), ${CONNECTIONS} connections, no pipelining, ` +
  (PINNING ? `server on core 0, ${LOAD_GENERATOR} (one thread) on core 1` : 'not pinned (needs 2 cores and taskset)');
log(`# npm run bench\n\nMachine: ${machine}\nSettings: ${settings}\nLoad average at start: ${loadAtStart ?? 'n/a'}`);
if (loadAtStart !== null && loadAtStart > 0.5) {
  log('  warning: other work is running on this machine; every figure below is lower, and noisier, than it can do');
}

log('\n## Build');
const buildStarted = performance.now();
const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  cannotRun('`npm run build` failed');
}
log(`  built in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);

// These load our workspaces (the upstream double, the sort rule) from their built `dist`: only now do they exist.
const { reportScenario, runScenario, SCENARIOS } = await import('./api-throughput.mjs');
const { runLargeCatalogue } = await import('./large-catalogue-browser.mjs');
const { runLargeCatalogueServer } = await import('./large-catalogue-server.mjs');
const { measurePages } = await import('./pages.mjs');
const { measureProductPhotos } = await import('./images.mjs');
const { measureTakeoverAndInteractions } = await import('./interactions.mjs');
const { measureSearchKeystrokes } = await import('./search-keystrokes.mjs');

const workDir = `${ROOT}.bench/tmp`;
mkdirSync(workDir, { recursive: true });

try {
  await part('Start-up: spawn to first 200 on /healthz (embedded catalogue)', 'start-up', async () => {
    const times = [];
    for (let start = 0; start < STARTS; start++) {
      let server;
      try {
        server = await startBuiltServer();
      } catch (error) {
        cannotRun(`the built server does not start: ${error.message}`);
      }
      times.push(server.startupMs);
      await stopProcess(server.child);
    }
    const ms = median(times);
    log(`  ${times.map((time) => `${time.toFixed(0)} ms`).join(', ')}; median ${ms.toFixed(0)} ms`);
    report.add('start-up', `spawn → /healthz 200, median of ${STARTS}`, `${fmt(ms)} ms`, '≤ 1,000 ms', ms <= 1000);
  });

  for (const scenario of SCENARIOS) {
    await part(`API: cached GET /api/products, ${scenario.name}`, 'API', async () => {
      const result = await runScenario(scenario, { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rounds: ROUNDS, workDir, log });
      reportScenario(result, { rounds: ROUNDS, log, report });
    });
  }

  await part('Pages: a cached page hit against raw node:http, the CPU of a cold render', 'pages', () =>
    measurePages({ seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rounds: ROUNDS, workDir, log, report }),
  );

  let browser;
  await part('Page budgets: gzip JavaScript a route loads (Chromium, empty cache)', 'page budget', async () => {
    browser = await launchChromium();
    const server = await startBuiltServer();
    try {
      for (const { path, budgetKb } of ROUTE_BUDGETS) {
        const scripts = await measureRouteScripts(browser, server.origin, path);
        const kb = scripts.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024;
        log(`  ${path.padEnd(10)} ${fmt(kb, 1)} KB gzip in ${scripts.length} files (budget ${budgetKb} KB)`);
        for (const script of scripts) log(`      ${script.path.padEnd(48)} ${fmt(script.gzipBytes / 1024, 1).padStart(6)} KB`);
        report.add(
          'page budget',
          `JS for ${path} (gzip)`,
          `${fmt(kb, 1)} KB in ${scripts.length} files`,
          `≤ ${budgetKb} KB`,
          kb <= budgetKb,
        );
      }
    } finally {
      await stopProcess(server.child);
    }
  });

  await part('Lighthouse (mobile preset, embedded catalogue)', 'Lighthouse', async () => {
    const server = await startBuiltServer();
    try {
      for (const result of await runLighthouse(server.origin)) {
        if (result.error) {
          log(`  ${result.path}: could not audit: ${result.error}`);
          report.add('Lighthouse', result.path, `could not audit: ${result.error}`);
          continue;
        }
        log(
          `  ${result.path.padEnd(18)} performance ${result.performance}, accessibility ${result.accessibility}, ` +
            `best practices ${result.bestPractices}, CLS ${fmt(result.cls, 3)}` +
            (result.failedAudits.length ? `; failed: ${result.failedAudits.join(', ')}` : ''),
        );
        report.add('Lighthouse', `${result.path} performance`, result.performance, '≥ 95', result.performance >= 95);
        report.add('Lighthouse', `${result.path} accessibility`, result.accessibility, '100', result.accessibility === 100);
        report.add('Lighthouse', `${result.path} best practices`, result.bestPractices, '≥ 95', result.bestPractices >= 95);
        report.add('Lighthouse', `${result.path} CLS`, fmt(result.cls, 3), '≤ 0.02', result.cls <= 0.02);
      }
    } finally {
      await stopProcess(server.child);
    }
  });

  await part('Product photos in front of the photo upstream (JPEGs of 370–1,049 × 333–1,500 px, 15–230 KB)', 'photos', async () => {
    browser ??= await launchChromium();
    await measureProductPhotos({ browser, log, report });
  });

  await part('Takeover and interactions: first paint → app in control; Event Timing with the CPU 4× slower', 'interactions', async () => {
    browser ??= await launchChromium();
    await measureTakeoverAndInteractions({ browser, log, report });
  });

  await part('Search as you type: the last key → its card first, at 20, 5,000 and 200,000 products', 'search', async () => {
    browser ??= await launchChromium();
    await measureSearchKeystrokes({ browser, log, report });
  });

  await part('Large catalogue on the server: 50,000 and 200,000 products', 'large catalogue, server', async () => {
    await runLargeCatalogueServer({ log, report, sizes: [50_000, 200_000] });
  });

  await part('Large catalogue in the browser: /products with 50,000 products', 'large catalogue', async () => {
    browser ??= await launchChromium();
    await runLargeCatalogue({ browser, log, report });
  });
  await browser?.close();
} finally {
  await stopAllProcesses();
  rmSync(workDir, { recursive: true, force: true });
}

const durationSeconds = (performance.now() - started) / 1000;
const load = `load average ${loadAtStart ?? 'n/a'} at start, ${loadAverage() ?? 'n/a'} at the end`;
const summary = report.markdown({ machine: `${machine}; ${load}`, command: 'npm run bench', settings, startedAt, durationSeconds });
const summaryPath = `${ROOT}.bench/latest.md`;
writeReport(summaryPath, summary);
log(`\n## Summary (also in .bench/latest.md)\n\n${summary}`);
