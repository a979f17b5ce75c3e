// Cached `GET /api/products` on the built server against the ceiling (raw node:http sending the same bytes) and a
// typical proxy (Express + compression), in the same run, round by round. Alone, on the last build:
// `node scripts/bench/api-throughput.mjs [product counts…]` (default 20 and 1000), BENCH_SECONDS and BENCH_ROUNDS as
// for `npm run bench`, BENCH_SERVER_ENTRY to measure another build against the same contenders.
import {
  contest,
  decodedText,
  envNumber,
  fmt,
  get,
  get200,
  LOAD_GENERATOR,
  measureLoad,
  percent,
  Report,
  runAlone,
  startBuiltServer,
  startContender,
  startUpstream,
  stopProcess,
} from './harness.mjs';

const RSS_BUDGET_MB = 150;
export const SCENARIOS = [
  { name: '20 products, identity', count: 20, headers: {}, ratioTarget: 0.8 },
  { name: '1,000 products, gzip', count: 1000, headers: { 'accept-encoding': 'gzip' }, ratioTarget: 0.8 },
  { name: '5,000 products, gzip', count: 5000, headers: { 'accept-encoding': 'gzip' }, ratioTarget: null },
];

/**
 * The built server in front of `upstream`, its list filled (the MISS, timed), asked again (a HIT), and a page
 * rendered, as on a site being visited: what a render leaves in the process is paid by every later request
 * (docs/decisions/react-edge-renderer.md).
 */
async function startWarmedServer(upstream, { headers }) {
  const server = await startBuiltServer({ productsApiUrl: upstream.url });
  const url = `${server.origin}/api/products`;
  const fillStarted = performance.now();
  const fill = await get200(url, headers, 120_000);
  const fillMs = performance.now() - fillStarted;
  const hit = await get200(url, headers);
  await get200(`${server.origin}/products`);
  return { name: 'server', url, child: server.child, fill, hit, fillMs };
}

/**
 * One scenario: its upstream and server, the cache warmed and checked (X-Cache: HIT before and after), the contenders
 * made from the server's own answer, then `rounds` rounds of `seconds` each. A server of its own each round: the
 * limiter (1,000,000 a minute) counts every request, and three rounds at 50,000 a second would spend it.
 */
export async function runScenario(scenario, { seconds, rounds, log }) {
  const upstream = await startUpstream(scenario.count);
  const contenders = [];
  try {
    const server = await startWarmedServer(upstream, scenario);
    contenders.push(server);
    log(
      `    cache: first answer X-Cache ${server.fill.headers['x-cache']} after ${server.fillMs.toFixed(0)} ms, then ${server.hit.headers['x-cache']}`,
    );
    contenders.push(await startContender('raw', server.hit), await startContender('express', server.hit));
    // The same content from all three, and what each puts on the wire for it.
    for (const contender of contenders) {
      const answer = await get(contender.url, scenario.headers);
      contender.sameContent = answer.status === 200 && decodedText(answer) === decodedText(server.hit);
      contender.encoding = answer.headers['content-encoding'] ?? 'identity';
      contender.bodyBytes = answer.body.length;
      const headerBytes = answer.rawHeaders.reduce((sum, value) => sum + Buffer.byteLength(value) + 2, 0);
      log(
        `    ${contender.name.padEnd(20)} ${contender.sameContent ? 'same JSON' : 'DIFFERENT JSON'}, ${contender.encoding}, body ${contender.bodyBytes} B, headers ${headerBytes} B`,
      );
    }
    const results = await contest(contenders, {
      headers: scenario.headers,
      seconds,
      rounds,
      log,
      async beforeRun(contender, round) {
        if (contender !== server || round === 0) return;
        await stopProcess(contender.child);
        Object.assign(contender, await startWarmedServer(upstream, scenario));
        await measureLoad({ url: contender.url, headers: scenario.headers, seconds: 2 });
      },
    });
    const after = await get(server.url, scenario.headers);
    if (after.headers['x-cache'] !== 'HIT') log(`    warning: after the run the server answered X-Cache ${after.headers['x-cache']}`);
    const warmed = server.hit.headers['x-cache'] === 'HIT' && after.headers['x-cache'] === 'HIT';
    return { scenario, fillMs: server.fillMs, warmed, contenders: results };
  } finally {
    await Promise.all(contenders.map(({ child }) => stopProcess(child)));
    await upstream.close();
  }
}

/**
 * Whether raw node:http's figure is this machine's ceiling: if only wrk used a whole core, the load generator set the
 * pace; if neither did, other work did. Null when it is sound.
 */
function ceilingCaveat(raw) {
  if (raw.loadGeneratorCpu >= 0.9 && raw.serverCpu !== null && raw.serverCpu < 0.9) {
    return "unjudged: wrk saturated its core against raw node:http, so the ceiling is the load generator's";
  }
  if (raw.serverCpu !== null && raw.loadGeneratorCpu !== null && Math.max(raw.serverCpu, raw.loadGeneratorCpu) < 0.8) {
    return `unjudged: neither raw node:http (${percent(raw.serverCpu)}) nor wrk (${percent(raw.loadGeneratorCpu)}) used a whole core, so other work on this machine set the pace (CPU per answer still compares)`;
  }
  return null;
}

/** Prints a scenario's medians, each contender against raw node:http, and adds them to `report`. */
export function reportScenario({ scenario, fillMs, warmed, contenders }, { rounds, log, report }) {
  const [server, raw] = contenders;
  const caveat = ceilingCaveat(raw);
  log(`  medians of ${rounds} rounds:`);
  for (const contender of contenders) {
    const ratio = contender.requestsPerSecond / raw.requestsPerSecond;
    const line =
      `${fmt(contender.requestsPerSecond)} req/s (${fmt(ratio, 2)}× raw), p50 ${fmt(contender.p50, 2)} ms, p99 ${fmt(contender.p99, 2)} ms, ` +
      `peak RSS ${fmt(contender.peakRssMb)} MB, ${contender.encoding} body ${fmt(contender.bodyBytes)} B, CPU ${percent(contender.serverCpu)} ` +
      `(${LOAD_GENERATOR} ${percent(contender.loadGeneratorCpu)}), ${fmt(contender.cpuPerRequestUs)} µs CPU/answer (${fmt(contender.cpuPerRequestUs / raw.cpuPerRequestUs, 1)}× raw)` +
      (contender.sameContent ? '' : ', DIFFERENT JSON') +
      (contender.failures ? `, ${contender.failures} failed requests` : '');
    log(`    ${contender.name.padEnd(20)} ${line}`);
    const target = contender === server && scenario.ratioTarget !== null ? `≥ ${scenario.ratioTarget}× raw` : '';
    const passed = target && caveat === null ? ratio >= scenario.ratioTarget && contender.failures === 0 && warmed : null;
    report.add('API', `${scenario.name}: ${contender.name}`, contender === server && caveat ? `${line}; ${caveat}` : line, target, passed);
    if (contender !== server) continue;
    log(`  ratio: ${fmt(ratio, 2)}× raw node:http${target && ` (target ${target}${caveat ? ', unjudged' : ''})`}`);
    const peak = contender.peakRssMb;
    report.add('API', `${scenario.name}: server peak RSS under load`, `${fmt(peak)} MB`, `≤ ${RSS_BUDGET_MB} MB`, peak <= RSS_BUDGET_MB);
  }
  if (caveat) log(`  note: ${caveat}`);
  report.add('API', `${scenario.name}: server cache fill (the MISS)`, `${fmt(fillMs)} ms`);
  if (!warmed) log('  warning: the server did not answer X-Cache: HIT throughout: the figures are not those of cache hits');
}

/** The API part of the bench: each scenario chosen, its figures printed and reported. */
export async function measureApi({
  log,
  report,
  counts = [],
  seconds = envNumber('BENCH_SECONDS', 6),
  rounds = envNumber('BENCH_ROUNDS', 3),
}) {
  for (const scenario of SCENARIOS.filter((s) => (counts.length ? counts.includes(s.count) : s.ratioTarget !== null))) {
    log(`## API: cached GET /api/products, ${scenario.name} (${LOAD_GENERATOR}, ${rounds} rounds × ${seconds} s)`);
    reportScenario(await runScenario(scenario, { seconds, rounds, log }), { rounds, log, report: report ?? new Report() });
  }
}

await runAlone(import.meta.url, (parts) => measureApi({ ...parts, counts: process.argv.slice(2).map(Number) }));
