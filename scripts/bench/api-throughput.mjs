// Cached `GET /api/products` on the built server, against the ceiling (raw node:http sending the same bytes) and
// a typical proxy (Express + compression), measured in the same run, interleaved round by round.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_CORE, startBuiltServer } from './built-server.mjs';
import { startContender } from './contenders.mjs';
import { decodedText, get } from './http.mjs';
import { LOAD_GENERATOR, measureLoad } from './load.mjs';
import { cpuSeconds, killChildrenOnExit, peakRssMb, resetPeakRss, stopAllProcesses, stopProcess } from './processes.mjs';
import { fmt, median, percent } from './report.mjs';
import { startUpstream } from './upstream.mjs';

const RSS_BUDGET_MB = 150;

export const SCENARIOS = [
  { name: '20 products, identity', count: 20, headers: {}, ratioTarget: 0.8 },
  { name: '1,000 products, gzip', count: 1000, headers: { 'accept-encoding': 'gzip' }, ratioTarget: 0.8 },
  { name: '5,000 products, gzip', count: 5000, headers: { 'accept-encoding': 'gzip' }, ratioTarget: null },
];

/** Headers Node's http layer writes by itself on every response; the raw contender must not send them twice. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const pairs = (rawHeaders) => rawHeaders.flatMap((value, index) => (index % 2 === 0 ? [[value, rawHeaders[index + 1]]] : []));
const headerBytes = (rawHeaders) => rawHeaders.reduce((sum, value) => sum + Buffer.byteLength(value) + 2, 0);

/**
 * The built server in front of `upstream`, its list filled (a fill validates every product and prepares gzip and
 * brotli bodies at their highest levels: it may take seconds for a large list, and is worth knowing), asked again
 * (a HIT), and a page rendered, as on any site that is being visited: what a render leaves behind in the process (an
 * async hook, polymorphic call sites) is paid by every later request (docs/decisions/react-edge-renderer.md).
 */
async function startWarmedServer(upstream, scenario) {
  const server = await startBuiltServer({ productsApiUrl: upstream.url });
  const url = `${server.origin}/api/products`;
  const fillStarted = performance.now();
  const fill = await get(url, scenario.headers, 120_000);
  const fillMs = performance.now() - fillStarted;
  const hit = await get(url, scenario.headers);
  if (fill.status !== 200 || hit.status !== 200) throw new Error(`the server answered ${fill.status}, then ${hit.status}`);
  const page = await get(`${server.origin}/products`, {}, 60_000);
  if (page.status !== 200) throw new Error(`the server answered ${page.status} for /products`);
  return { server, fill, hit, fillMs };
}

/**
 * Runs one scenario: its own upstream and built server, the cache warmed and checked (X-Cache: HIT), the
 * contenders prepared from the server's own answer, then `rounds` rounds in which every contender is measured
 * for `seconds`, in an order that rotates so none always goes first (the server started afresh for each round). Returns the figures per contender.
 */
export async function runScenario(scenario, { seconds, warmupSeconds, rounds, workDir, log }) {
  const upstream = await startUpstream(scenario.count);
  const started = [];
  try {
    const { server, fill, hit, fillMs } = await startWarmedServer(upstream, scenario);
    started.push(server.child);
    const serverUrl = `${server.origin}/api/products`;
    const warmed = hit.headers['x-cache'] === 'HIT';
    log(`    cache: first answer X-Cache ${fill.headers['x-cache']} after ${fillMs.toFixed(0)} ms, then ${hit.headers['x-cache']}`);

    const expectedText = decodedText(hit);
    const rawFile = join(workDir, `raw-${scenario.count}.json`);
    writeFileSync(
      rawFile,
      JSON.stringify({
        headers: pairs(hit.rawHeaders).filter(([name]) => !PER_CONNECTION_HEADERS.has(name.toLowerCase())),
        bodyBase64: hit.body.toString('base64'),
      }),
    );
    const expressFile = join(workDir, `express-${scenario.count}.json`);
    writeFileSync(expressFile, JSON.stringify({ json: expectedText }));

    const raw = await startContender('raw', rawFile, SERVER_CORE);
    started.push(raw.child);
    const express = await startContender('express', expressFile, SERVER_CORE);
    started.push(express.child);
    const contenders = [
      { name: 'server', url: serverUrl, child: server.child },
      { name: 'raw node:http', url: raw.url, child: raw.child },
      { name: 'Express+compression', url: express.url, child: express.child },
    ];

    // Same content for all three, and what each puts on the wire for it.
    for (const contender of contenders) {
      const answer = await get(contender.url, scenario.headers);
      contender.sameContent = answer.status === 200 && decodedText(answer) === expectedText;
      contender.encoding = answer.headers['content-encoding'] ?? 'identity';
      contender.bodyBytes = answer.body.length;
      contender.headerBytes = headerBytes(answer.rawHeaders);
      log(
        `    ${contender.name.padEnd(20)} ${contender.sameContent ? 'same JSON' : 'DIFFERENT JSON'}, ` +
          `${contender.encoding}, body ${contender.bodyBytes} B, headers ${contender.headerBytes} B`,
      );
    }

    for (const contender of contenders) await measureLoad({ url: contender.url, headers: scenario.headers, seconds: warmupSeconds });

    for (const contender of contenders) contender.runs = [];
    for (let round = 0; round < rounds; round++) {
      const order = contenders.map((_, index) => contenders[(index + round) % contenders.length]);
      for (const contender of order) {
        // A server of its own each round: the bench's rate limit (the highest the setting takes, 1,000,000 a minute)
        // counts every request, and three rounds at 50,000 a second would spend it and measure 429s.
        if (contender.name === 'server' && round > 0) {
          await stopProcess(contender.child);
          const { server: fresh } = await startWarmedServer(upstream, scenario);
          started.push(fresh.child);
          Object.assign(contender, { url: `${fresh.origin}/api/products`, child: fresh.child });
          await measureLoad({ url: contender.url, headers: scenario.headers, seconds: warmupSeconds });
        }
        resetPeakRss(contender.child.pid);
        const cpuBefore = cpuSeconds(contender.child.pid);
        const result = await measureLoad({ url: contender.url, headers: scenario.headers, seconds });
        result.peakRssMb = peakRssMb(contender.child.pid);
        const cpuUsed = cpuBefore === null ? null : cpuSeconds(contender.child.pid) - cpuBefore;
        // Share of a core over the load generator's run (plus its start-up, so a slight underestimate).
        result.serverCpu = cpuUsed === null ? null : cpuUsed / seconds;
        // CPU time per answer: unlike req/s, it hardly depends on how much of the core other work left over.
        result.cpuPerRequestUs = cpuUsed === null || result.responses === 0 ? null : (cpuUsed / result.responses) * 1e6;
        contender.runs.push(result);
        log(
          `    round ${round + 1}/${rounds}  ${contender.name.padEnd(20)} ${Math.round(result.requestsPerSecond)
            .toString()
            .padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  peak RSS ${result.peakRssMb?.toFixed(0)} MB  ` +
            `CPU: server ${percent(result.serverCpu)} (${result.cpuPerRequestUs?.toFixed(0)} µs/answer), ${LOAD_GENERATOR} ${percent(result.loadGeneratorCpu)}` +
            (result.non2xx || result.errors ? `  (${result.non2xx} non-2xx, ${result.errors} errors)` : ''),
        );
      }
    }

    const after = await get(contenders[0].url, scenario.headers);
    const stillHit = after.headers['x-cache'] === 'HIT';
    if (!stillHit) log(`    warning: after the run the server answered X-Cache ${after.headers['x-cache']}`);

    return {
      scenario,
      fillMs,
      warmed: warmed && stillHit,
      contenders: contenders.map(({ name, runs, sameContent, encoding, bodyBytes, headerBytes }) => ({
        name,
        sameContent,
        encoding,
        bodyBytes,
        headerBytes,
        requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
        p50: median(runs.map((run) => run.p50)),
        p99: median(runs.map((run) => run.p99)),
        peakRssMb: Math.max(...runs.map((run) => run.peakRssMb ?? 0)),
        serverCpu: median(runs.map((run) => run.serverCpu)),
        cpuPerRequestUs: median(runs.map((run) => run.cpuPerRequestUs)),
        loadGeneratorCpu: median(runs.map((run) => run.loadGeneratorCpu)),
        failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      })),
    };
  } finally {
    await Promise.all(started.map((child) => stopProcess(child)));
    await upstream.close();
  }
}

/**
 * Whether the raw contender's figure is really this machine's ceiling. Against raw node:http, raw node:http or
 * wrk should use a whole core; if only wrk does, the load generator set the pace (the server's
 * ratio then understates the gap); if neither does, other work on the machine did, and the ratios mean little.
 * Returns null when the ceiling is sound.
 */
function ceilingCaveat(raw) {
  if (raw.loadGeneratorCpu !== null && raw.loadGeneratorCpu >= 0.9 && raw.serverCpu !== null && raw.serverCpu < 0.9) {
    return "unjudged: wrk saturated its core against raw node:http, so the ceiling is the load generator's";
  }
  if (raw.serverCpu !== null && raw.loadGeneratorCpu !== null && Math.max(raw.serverCpu, raw.loadGeneratorCpu) < 0.8) {
    return (
      `unjudged: neither raw node:http (${percent(raw.serverCpu)}) nor wrk (${percent(raw.loadGeneratorCpu)}) used a whole core, ` +
      'so other work on this machine set the pace (CPU per answer still compares)'
    );
  }
  return null;
}

/** Prints a scenario's medians, each contender against raw node:http, and adds them to the bench's report (if any). */
export function reportScenario(result, { rounds, log, report }) {
  const { scenario } = result;
  const [server, raw] = result.contenders;
  const caveat = ceilingCaveat(raw);
  log(`  medians of ${rounds} rounds:`);
  for (const contender of result.contenders) {
    const ratio = contender.requestsPerSecond / raw.requestsPerSecond;
    const line =
      `${fmt(contender.requestsPerSecond)} req/s (${fmt(ratio, 2)}× raw), p50 ${fmt(contender.p50, 2)} ms, ` +
      `p99 ${fmt(contender.p99, 2)} ms, peak RSS ${fmt(contender.peakRssMb)} MB, ${contender.encoding} body ${fmt(contender.bodyBytes)} B, ` +
      `CPU ${percent(contender.serverCpu)} (${LOAD_GENERATOR} ${percent(contender.loadGeneratorCpu)}), ` +
      `${fmt(contender.cpuPerRequestUs)} µs CPU/answer (${fmt(contender.cpuPerRequestUs / raw.cpuPerRequestUs, 1)}× raw)` +
      (contender.sameContent ? '' : ', DIFFERENT JSON') +
      (contender.failures ? `, ${contender.failures} failed requests` : '');
    log(`    ${contender.name.padEnd(20)} ${line}`);
    const isServer = contender === server;
    const target = isServer && scenario.ratioTarget !== null ? `≥ ${scenario.ratioTarget}× raw` : '';
    const judged = target !== '' && caveat === null;
    const passed = judged ? ratio >= scenario.ratioTarget && contender.failures === 0 && result.warmed : null;
    report?.add('API', `${scenario.name}: ${contender.name}`, isServer && caveat ? `${line}; ${caveat}` : line, target, passed);
    if (isServer) {
      log(`  ratio: ${fmt(ratio, 2)}× raw node:http${target === '' ? '' : ` (target ${target}${caveat ? ', unjudged' : ''})`}`);
      report?.add(
        'API',
        `${scenario.name}: server peak RSS under load`,
        `${fmt(contender.peakRssMb)} MB`,
        `≤ ${RSS_BUDGET_MB} MB`,
        contender.peakRssMb <= RSS_BUDGET_MB,
      );
    }
  }
  if (caveat) log(`  note: ${caveat}`);
  report?.add('API', `${scenario.name}: server cache fill (the MISS)`, `${fmt(result.fillMs)} ms`);
  if (!result.warmed) log('  warning: the server did not answer X-Cache: HIT throughout: the figures are not those of cache hits');
}

// Alone, on the last build: `node scripts/bench/api-throughput.mjs [product counts…]` (default 20 and 1000), with
// BENCH_SECONDS and BENCH_ROUNDS as for `npm run bench`, and BENCH_SERVER_ENTRY to measure another build.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seconds = Number(process.env.BENCH_SECONDS) || 6;
  const rounds = Number(process.env.BENCH_ROUNDS) || 3;
  const counts = process.argv.slice(2).map(Number);
  const chosen = SCENARIOS.filter((scenario) => (counts.length === 0 ? scenario.ratioTarget !== null : counts.includes(scenario.count)));
  const workDir = fileURLToPath(new URL('../../.bench/tmp-api', import.meta.url));
  mkdirSync(workDir, { recursive: true });
  killChildrenOnExit();
  const log = (line = '') => console.log(line);
  try {
    for (const scenario of chosen) {
      log(`## API: cached GET /api/products, ${scenario.name} (${LOAD_GENERATOR}, ${rounds} rounds × ${seconds} s)`);
      reportScenario(await runScenario(scenario, { seconds, warmupSeconds: 2, rounds, workDir, log }), { rounds, log });
    }
  } finally {
    await stopAllProcesses();
    rmSync(workDir, { recursive: true, force: true });
  }
}
