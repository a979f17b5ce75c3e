// `npm run soak`: the built server (`npm run build` first) in front of the upstream double flapping through its
// failure modes (testing/src/flapping-upstream.ts), under mixed load (API, pages, photo variants) for
// SOAK_SECONDS, every key warmed first. Prints 5xx/404 on warmed keys, p50/p99, /healthz's slowest answer, peak
// RSS, live heap after a full GC and open descriptors at the start and the end, each against its target; the
// last line is `SOAK_RESULT <json>` for programs (the short soak in server/src/soak.test.ts reads it).
//
// Exits 1 when a warmed key failed (5xx, 404 or no answer), the live heap grew by more than 10 MB, or the open
// descriptors by more than 10: what the code decides. Latency and RSS depend on the machine too: reported with
// their targets, never failed on.
//
// Settings (environment): SOAK_SECONDS (600), SOAK_RATE requests per second (250), SOAK_PHASE_MS per upstream
// mode (3000), SOAK_PRODUCTS (20, each with a real photo), and SOAK_SERVER_ENV, JSON of server settings on top of
// the soak's own (e.g. '{"MALLOC_ARENA_MAX":""}' to see glibc's default arenas).
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startFlapping } from '@catalogue/testing/flapping-upstream';
import { startUpstreamStub } from '@catalogue/testing/upstream-double';
import { Agent } from 'node:http';
import { loadAverage, startBuiltServer } from '../bench/harness.mjs';
import { runLoad, soakKeys, timedGet, warm } from './mixed-load.mjs';

const SECONDS = positiveInteger('SOAK_SECONDS', 600);
const RATE = positiveInteger('SOAK_RATE', 250);
const PHASE_MS = positiveInteger('SOAK_PHASE_MS', 3000);
const PRODUCTS = positiveInteger('SOAK_PRODUCTS', 20);
const UPSTREAM_TIMEOUT_MS = 2000;
const MB = 1024 * 1024;
const LIMITS = { heapGrowthMb: 10, descriptorGrowth: 10 };
const TARGETS = { p99Ms: 300, healthzMaxMs: 500, peakRssMb: 200 };

function positiveInteger(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const log = (line = '') => console.log(line);
const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Polls /healthz every 200 ms on a connection of its own, keeping the slowest answer and any failure. */
function watchHealth(origin) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const seen = { slowestMs: 0, failures: 0, checks: 0 };
  let running = true;
  const done = (async () => {
    while (running) {
      const { status, ms } = await timedGet(origin, { path: '/healthz', headers: {} }, agent);
      seen.checks += 1;
      seen.slowestMs = Math.max(seen.slowestMs, ms);
      if (status !== 200) seen.failures += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      agent.destroy();
      return seen;
    },
  };
}

/**
 * Measures after the server's connections from the load have closed: descriptors counted while sockets are
 * still closing would say nothing. Settles when two readings a short while apart agree.
 */
/** The kinds of descriptor whose count differs between two readings, with the difference. */
function changedKinds(before, after) {
  const kinds = new Set([...Object.keys(before), ...Object.keys(after)]);
  return Object.fromEntries(
    [...kinds].map((kind) => [kind, (after[kind] ?? 0) - (before[kind] ?? 0)]).filter(([, change]) => change !== 0),
  );
}

async function settledMeasure(server) {
  let previous = await server.measure();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const reading = await server.measure();
    if (reading.descriptors === previous.descriptors) return reading;
    previous = reading;
  }
  return previous;
}

const upstream = await startUpstreamStub({ products: generateCatalogue(PRODUCTS), photos: true });
let server;
let exitCode = 1;
try {
  // On top of the memory settings the container and `npm start` run with, which the harness applies
  // (scripts/runtime-settings.mjs); SOAK_SERVER_ENV may set one of them empty to leave it at the default.
  const serverEnv = {
    // As the issue measured it: a short TTL, so every key goes stale, again and again, during the outage.
    CACHE_TTL_SECONDS: '3',
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    // One client address for all the load: the limiter counts it at its highest setting, never refuses it.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...JSON.parse(process.env.SOAK_SERVER_ENV || '{}'),
  };
  server = await startBuiltServer({ productsApiUrl: upstream.url, env: serverEnv, measured: true });
  const keys = soakKeys(generateCatalogue(PRODUCTS));
  log(`# npm run soak\n\nSettings: ${SECONDS} s at ${RATE} requests/s over ${keys.length} warmed keys (${PRODUCTS} products with photos),`);
  log(`  upstream modes changing every ${PHASE_MS} ms; server env ${JSON.stringify(serverEnv)} over the memory settings`);
  log(`  load average at start: ${loadAverage() ?? 'n/a'} (on a busy machine every latency below is longer)`);

  const notWarmed = await warm(server.origin, keys);
  if (notWarmed.length > 0) {
    const [first] = notWarmed;
    throw new Error(`${notWarmed.length} keys did not answer 200 while warming, e.g. ${first.path} (${first.status || 'no answer'})`);
  }
  const start = await settledMeasure(server);
  const rssAtStart = server.rss();

  const flapping = startFlapping(upstream, { phaseMs: PHASE_MS });
  const health = watchHealth(server.origin);
  const loadStarted = performance.now();
  // Once a second: what the memory was made of at its highest, and what the upstream was doing then.
  let atPeak = { rss: 0 };
  const sampler = setInterval(() => {
    server.sample().then(
      (sample) => {
        if (sample.rss > atPeak.rss)
          atPeak = { ...sample, mode: upstream.mode, second: Math.round((performance.now() - loadStarted) / 1000) };
      },
      () => {},
    );
  }, 1000);
  const { results, skipped } = await runLoad(server.origin, keys, { rate: RATE, seconds: SECONDS });
  clearInterval(sampler);
  const healthSeen = await health.stop();
  await flapping.stop();
  // Requests the server still holds to a hanging upstream end at UPSTREAM_TIMEOUT_MS; idle upstream sockets then.
  await new Promise((resolve) => setTimeout(resolve, UPSTREAM_TIMEOUT_MS + 1000));
  const end = await settledMeasure(server);
  const rssAtEnd = server.rss();

  const failures = results.filter((result) => result.status === 0 || result.status === 404 || result.status >= 500);
  const byKind = {};
  for (const result of results) (byKind[result.kind] ??= []).push(result);
  const times = results.map((result) => result.ms).sort((a, b) => a - b);
  const figures = {
    seconds: SECONDS,
    requests: results.length,
    skipped,
    failures: failures.length,
    failuresByKind: Object.fromEntries(
      Object.entries(byKind).map(([kind, list]) => [kind, list.filter((r) => failures.includes(r)).length]),
    ),
    failureExamples: failures.slice(0, 5).map(({ path, status }) => `${status} ${path}`),
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    healthzMaxMs: healthSeen.slowestMs,
    healthzFailures: healthSeen.failures,
    peakRssMb: rssAtEnd.peakRssMb,
    rssAfterWarmingMb: rssAtStart.rssMb,
    rssAtEndMb: rssAtEnd.rssMb,
    atPeakMb: Object.fromEntries(
      ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'].map((field) => [field, Math.round(atPeak[field] / MB)]),
    ),
    peakMode: atPeak.mode,
    peakSecond: atPeak.second,
    heapAfterGcMb: { start: start.heapUsedBytes / MB, end: end.heapUsedBytes / MB },
    arrayBuffersMb: { start: start.arrayBuffersBytes / MB, end: end.arrayBuffersBytes / MB },
    descriptors: { start: start.descriptors, end: end.descriptors },
    descriptorKindsChanged: changedKinds(start.descriptorKinds, end.descriptorKinds),
    modesPlayed: flapping.played.length,
    loadAverageAtEnd: loadAverage(),
    upstreamRequests: upstream.requestCount(),
  };
  const heapGrowthMb = figures.heapAfterGcMb.end - figures.heapAfterGcMb.start;
  const descriptorGrowth = end.descriptors - start.descriptors;
  const checks = [
    ['5xx/404 on warmed keys', figures.failures, '0', figures.failures === 0],
    ['live heap growth after GC (MB)', fmt(heapGrowthMb, 1), `≤ ${LIMITS.heapGrowthMb}`, heapGrowthMb <= LIMITS.heapGrowthMb],
    ['open descriptors growth', descriptorGrowth, `≤ ${LIMITS.descriptorGrowth}`, descriptorGrowth <= LIMITS.descriptorGrowth],
  ];
  const targets = [
    ['p99 (ms)', fmt(figures.p99Ms), `≤ ${TARGETS.p99Ms}`, figures.p99Ms <= TARGETS.p99Ms],
    ['/healthz slowest (ms)', fmt(figures.healthzMaxMs), `≤ ${TARGETS.healthzMaxMs}`, figures.healthzMaxMs <= TARGETS.healthzMaxMs],
    ['peak RSS (MB, VmHWM)', fmt(figures.peakRssMb), `≤ ${TARGETS.peakRssMb}`, figures.peakRssMb <= TARGETS.peakRssMb],
  ];
  log(
    `\n${figures.requests} requests (${Object.entries(byKind)
      .map(([kind, list]) => `${list.length} ${kind}`)
      .join(', ')}), ${skipped} skipped`,
  );
  log(`  (at ${RATE}/s with 64 in flight already), ${figures.upstreamRequests} upstream requests over ${figures.modesPlayed} modes`);
  log(`  failures by kind: ${JSON.stringify(figures.failuresByKind)} ${figures.failureExamples.join('; ')}`);
  log(`  load average at the end: ${figures.loadAverageAtEnd ?? 'n/a'}`);
  log(`  p50 ${fmt(figures.p50Ms, 1)} ms, p99 ${fmt(figures.p99Ms, 1)} ms; /healthz slowest ${fmt(figures.healthzMaxMs)} ms`);
  log(
    `  RSS after warming ${fmt(figures.rssAfterWarmingMb)} MB, peak ${fmt(figures.peakRssMb)} MB, at the end ${fmt(figures.rssAtEndMb)} MB`,
  );
  log(
    `  at the highest sample (second ${figures.peakSecond}, upstream ${figures.peakMode}): ` +
      Object.entries(figures.atPeakMb)
        .map(([field, mb]) => `${field} ${mb} MB`)
        .join(', '),
  );
  log(`  live heap after GC ${fmt(figures.heapAfterGcMb.start, 1)} → ${fmt(figures.heapAfterGcMb.end, 1)} MB;`);
  log(
    `  array buffers ${fmt(figures.arrayBuffersMb.start, 1)} → ${fmt(figures.arrayBuffersMb.end, 1)} MB; descriptors ${start.descriptors} → ${end.descriptors}`,
  );
  log(`  descriptors that changed, by kind: ${JSON.stringify(figures.descriptorKindsChanged)}`);
  log('\n| check | figure | limit | |\n|---|---|---|---|');
  for (const [name, value, limit, ok] of checks) log(`| ${name} | ${value} | ${limit} | ${ok ? 'ok' : 'FAIL'} |`);
  for (const [name, value, limit, ok] of targets) log(`| ${name} | ${value} | ${limit} (target) | ${ok ? 'ok' : 'MISS'} |`);
  exitCode = checks.every(([, , , ok]) => ok) ? 0 : 1;
  log(`SOAK_RESULT ${JSON.stringify({ ...figures, heapGrowthMb, descriptorGrowth, passed: exitCode === 0 })}`);
} catch (error) {
  const exit = server?.child.exitCode ?? server?.child.signalCode;
  console.error(`The soak could not run: ${error.message}${exit == null ? '' : `; the server had exited (${exit})`}`);
} finally {
  await server?.stop();
  await upstream.close();
}
process.exit(exitCode);
