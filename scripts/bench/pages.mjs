// Server-rendered pages (docs/pages.md): a cached page hit on the built server against raw node:http sending the
// same bytes, and the CPU time of a cold render of /products. Node loads the server's modules and the generated
// catalogue from their built `dist`, so import this module only after `npm run build`. Part of `npm run bench`;
// `node scripts/bench/pages.mjs` runs it alone on the last build (BENCH_SECONDS, BENCH_ROUNDS as for the bench).
import { toPublicProduct } from '@catalogue/server/catalogue/list/public-product';
import { loadPageRenderer } from '@catalogue/server/pages/page-renderer';
import { renderPageHtml } from '@catalogue/server/pages/pages-slice';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import {
  contest,
  decodedText,
  envNumber,
  fmt,
  get,
  get200,
  median,
  ROOT,
  runAlone,
  startContender,
  startUpstream,
  withServer,
} from './harness.mjs';

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

/** Both measurements; each figure goes to `report` under 'pages'. */
export async function measurePages({ log, report, seconds = envNumber('BENCH_SECONDS', 6), rounds = envNumber('BENCH_ROUNDS', 3) }) {
  await withServer(startUpstream(20), {}, (server) => measureCachedHit(server, { seconds, rounds, log, report }));
  await measureColdRenders({ log, report });
}

/**
 * A cached `GET /products` (20 products) against raw node:http replaying its exact answer, round by round as for the
 * API. The page is rendered by the first request; every measured one is a hit (X-Cache: HIT, checked before and after).
 */
async function measureCachedHit(server, { seconds, rounds, log, report }) {
  const url = `${server.origin}${PAGE}`;
  const first = await get200(url, BROWSER_HEADERS);
  const hit = await get200(url, BROWSER_HEADERS);
  const samePage = decodedText(first) === decodedText(hit);
  const body = `${hit.headers['content-encoding'] ?? 'identity'} body ${fmt(hit.body.length)} B`;
  log(
    `  ${PAGE}: first answer X-Cache ${first.headers['x-cache']}, then ${hit.headers['x-cache']}; ${body} (${fmt(decodedText(hit).length)} B of HTML)` +
      (samePage ? '' : '; DIFFERENT bytes on the second answer'),
  );
  const raw = await startContender('raw', hit, PAGE);
  try {
    const [ours, ceiling] = await contest([{ name: 'server', url, child: server.child }, raw], {
      headers: BROWSER_HEADERS,
      seconds,
      rounds,
      log,
    });
    const warmed = hit.headers['x-cache'] === 'HIT' && (await get(url, BROWSER_HEADERS)).headers['x-cache'] === 'HIT';
    const ratio = ours.requestsPerSecond / ceiling.requestsPerSecond;
    const line =
      `${fmt(ours.requestsPerSecond)} req/s against raw node:http's ${fmt(ceiling.requestsPerSecond)} (${fmt(ratio, 2)}×), p99 ${fmt(ours.p99)} ms, ` +
      `${fmt(ours.cpuPerRequestUs)} µs CPU/answer (raw ${fmt(ceiling.cpuPerRequestUs)} µs), ${body}` +
      (warmed ? '' : ', NOT all cache hits') +
      (ours.failures ? `, ${ours.failures} failed requests` : '');
    log(`  medians of ${rounds} rounds: ${line}`);
    const passed = ratio >= HIT_RATIO_TARGET && warmed && samePage && ours.failures === 0;
    report.add('pages', `cached ${PAGE} hit (20 products), medians of ${rounds}`, line, `≥ ${HIT_RATIO_TARGET}× raw`, passed);
  } finally {
    raw.child.kill();
  }
}

/**
 * The CPU time of a cold render of `/products` (renderPageHtml: the built client's render, the head, the template and
 * the state block, what a page-cache miss runs) in this process, at 20 and 5,000 products. Compressing the page (once
 * per render, on libuv's pool) is not part of it.
 */
async function measureColdRenders({ log, report }) {
  const renderer = await loadPageRenderer(`${ROOT}client/dist/`);
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

await runAlone(import.meta.url, measurePages);
