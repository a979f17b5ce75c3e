// Server-rendered pages (docs/pages.md): a cached page hit on the built server against raw node:http sending the
// same bytes, and the CPU time of a cold render of /products. Node loads the server's modules and the generated
// catalogue from their built `dist`, so import this module only after `npm run build`. Part of `npm run bench`;
// `node scripts/bench/pages.mjs` runs it alone on the last build (BENCH_SECONDS, BENCH_ROUNDS as for the bench).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPublicProduct } from '@catalogue/server/catalogue/public-product';
import { loadPageRenderer } from '@catalogue/server/pages/page-renderer';
import { renderPageHtml } from '@catalogue/server/pages/pages-slice';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { runAlone, runsAlone } from './alone.mjs';
import { SERVER_CORE, startBuiltServer } from './built-server.mjs';
import { startContender } from './contenders.mjs';
import { decodedText, get } from './http.mjs';
import { LOAD_GENERATOR, measureLoad } from './load.mjs';
import { cpuSeconds, stopProcess } from './processes.mjs';
import { fmt, median, percent } from './report.mjs';
import { startUpstream } from './upstream.mjs';

const CLIENT_DIST = fileURLToPath(new URL('../../client/dist/', import.meta.url));
/** What Chromium asks for: the server picks brotli. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const PAGE = '/products';
const HIT_RATIO_TARGET = 0.5;
const RENDER_TARGETS = [
  { count: 20, targetMs: 15 },
  { count: 5000, targetMs: 50 },
];
/** Renders measured per catalogue size, after as many to warm the JIT; the median is reported. */
const RENDERS = 20;
/** Headers Node's http layer writes by itself on every response; the raw contender must not send them twice. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const pairs = (rawHeaders) => rawHeaders.flatMap((value, index) => (index % 2 === 0 ? [[value, rawHeaders[index + 1]]] : []));

/** Both measurements; each figure goes to `report` under 'pages'. */
export async function measurePages({ seconds, warmupSeconds, rounds, workDir, log, report }) {
  await measureCachedHit({ seconds, warmupSeconds, rounds, workDir, log, report });
  await measureColdRenders({ log, report });
}

/**
 * A cached `GET /products` (20 products) on the built server against raw node:http replaying its exact answer,
 * interleaved round by round as for the API. The page is rendered by the first request; every measured one is
 * answered by the response cache in front of Express (X-Cache: HIT, checked before and after).
 */
async function measureCachedHit({ seconds, warmupSeconds, rounds, workDir, log, report }) {
  const upstream = await startUpstream(20);
  const started = [];
  try {
    const server = await startBuiltServer({ productsApiUrl: upstream.url });
    started.push(server.child);
    const url = `${server.origin}${PAGE}`;
    const first = await get(url, BROWSER_HEADERS, 60_000);
    const hit = await get(url, BROWSER_HEADERS);
    if (first.status !== 200 || hit.status !== 200) throw new Error(`${PAGE} answered ${first.status}, then ${hit.status}`);
    const samePage = decodedText(first) === decodedText(hit);
    log(
      `  ${PAGE}: first answer X-Cache ${first.headers['x-cache']}, then ${hit.headers['x-cache']}; ` +
        `${hit.headers['content-encoding'] ?? 'identity'} body ${fmt(hit.body.length)} B (${fmt(decodedText(hit).length)} B of HTML)` +
        (samePage ? '' : '; DIFFERENT bytes on the second answer'),
    );

    const rawFile = join(workDir, 'raw-page.json');
    writeFileSync(
      rawFile,
      JSON.stringify({
        headers: pairs(hit.rawHeaders).filter(([name]) => !PER_CONNECTION_HEADERS.has(name.toLowerCase())),
        bodyBase64: hit.body.toString('base64'),
      }),
    );
    const raw = await startContender('raw', rawFile, SERVER_CORE);
    started.push(raw.child);
    const contenders = [
      { name: 'server', url, child: server.child, runs: [] },
      { name: 'raw node:http', url: raw.url, child: raw.child, runs: [] },
    ];
    for (const contender of contenders) await measureLoad({ url: contender.url, headers: BROWSER_HEADERS, seconds: warmupSeconds });
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        const cpuBefore = cpuSeconds(contender.child.pid);
        const result = await measureLoad({ url: contender.url, headers: BROWSER_HEADERS, seconds });
        const cpuUsed = cpuBefore === null ? null : cpuSeconds(contender.child.pid) - cpuBefore;
        result.cpuPerRequestUs = cpuUsed === null || result.responses === 0 ? null : (cpuUsed / result.responses) * 1e6;
        result.serverCpu = cpuUsed === null ? null : cpuUsed / seconds;
        contender.runs.push(result);
        log(
          `    round ${round + 1}/${rounds}  ${contender.name.padEnd(14)} ${fmt(result.requestsPerSecond).padStart(7)} req/s  ` +
            `p50 ${result.p50} ms  p99 ${result.p99} ms  CPU ${percent(result.serverCpu)} (${fmt(result.cpuPerRequestUs)} µs/answer), ` +
            `${LOAD_GENERATOR} ${percent(result.loadGeneratorCpu)}` +
            (result.non2xx || result.errors ? `  (${result.non2xx} non-2xx, ${result.errors} errors)` : ''),
        );
      }
    }
    const after = await get(url, BROWSER_HEADERS);
    const warmed = hit.headers['x-cache'] === 'HIT' && after.headers['x-cache'] === 'HIT';

    const [ours, ceiling] = contenders.map(({ runs }) => ({
      requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
      p99: median(runs.map((run) => run.p99)),
      cpuPerRequestUs: median(runs.map((run) => run.cpuPerRequestUs)),
      failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    }));
    const ratio = ours.requestsPerSecond / ceiling.requestsPerSecond;
    const line =
      `${fmt(ours.requestsPerSecond)} req/s against raw node:http's ${fmt(ceiling.requestsPerSecond)} (${fmt(ratio, 2)}×), ` +
      `p99 ${fmt(ours.p99)} ms, ${fmt(ours.cpuPerRequestUs)} µs CPU/answer (raw ${fmt(ceiling.cpuPerRequestUs)} µs), ` +
      `${hit.headers['content-encoding'] ?? 'identity'} body ${fmt(hit.body.length)} B` +
      (warmed ? '' : ', NOT all cache hits') +
      (ours.failures ? `, ${ours.failures} failed requests` : '');
    log(`  medians of ${rounds} rounds: ${line}`);
    report.add(
      'pages',
      `cached ${PAGE} hit (20 products), medians of ${rounds}`,
      line,
      `≥ ${HIT_RATIO_TARGET}× raw`,
      ratio >= HIT_RATIO_TARGET && warmed && samePage && ours.failures === 0,
    );
  } finally {
    await Promise.all(started.map((child) => stopProcess(child)));
    await upstream.close();
  }
}

/**
 * The CPU time of a cold render of `/products` (the built client's render, the head, the template and the state
 * block: renderPageHtml, what the server runs on a page-cache miss), in this process, with the generated catalogue
 * at 20 and 5,000 products. Compressing the page (once per render, on libuv's pool) is not part of it.
 */
async function measureColdRenders({ log, report }) {
  const renderer = await loadPageRenderer(CLIENT_DIST);
  if (renderer === null) throw new Error('the client is not built (client/dist/server/entry-server.js)');
  const { route } = readPageUrl(PAGE);
  for (const { count, targetMs } of RENDER_TARGETS) {
    const data = { products: generateCatalogue(count).map(toPublicProduct) };
    const render = () => renderPageHtml(renderer, { url: PAGE, route, data, origin: 'http://127.0.0.1:3000' });
    for (let warm = 0; warm < RENDERS; warm++) await render();
    const cpuMs = [];
    let bytes = 0;
    for (let run = 0; run < RENDERS; run++) {
      const before = process.cpuUsage();
      bytes = Buffer.byteLength(await render());
      const used = process.cpuUsage(before);
      cpuMs.push((used.user + used.system) / 1000);
    }
    const ms = median(cpuMs);
    const line = `${fmt(ms, 1)} ms CPU (median of ${RENDERS}; ${fmt(Math.min(...cpuMs), 1)}–${fmt(Math.max(...cpuMs), 1)} ms), ${fmt(bytes / 1024)} KB of HTML`;
    log(`  cold render of ${PAGE}, ${fmt(count)} products: ${line}`);
    report.add('pages', `cold render of ${PAGE}, ${fmt(count)} products`, line, `≤ ${targetMs} ms`, ms <= targetMs);
  }
}

if (runsAlone(import.meta.url)) {
  const workDir = fileURLToPath(new URL('../../.bench/tmp-pages', import.meta.url));
  mkdirSync(workDir, { recursive: true });
  try {
    await runAlone((parts) =>
      measurePages({
        ...parts,
        seconds: Number(process.env.BENCH_SECONDS) || 6,
        warmupSeconds: 2,
        rounds: Number(process.env.BENCH_ROUNDS) || 3,
        workDir,
      }),
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
