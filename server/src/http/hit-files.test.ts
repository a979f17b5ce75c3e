import { Session } from 'node:inspector/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';

// What a cached hit runs of the project's own code, read by V8's precise coverage in this very process: the files
// a reader follows to understand a hit, and what every hit pays for (docs/architecture.md, "Response cache").
// scripts/bench/hit-files.mjs reads the same off the built server.

const SERVER = new URL('../', import.meta.url).href;
const SHARED = new URL('../../../shared/src/', import.meta.url).href;
let site: TestSite;
const session = new Session();

beforeAll(async () => {
  site = await startTestSite({ config: { LOG_LEVEL: 'info' } });
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});

afterAll(async () => {
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  await site.close();
});

/** The project's files (test support and tests left out) with a function that ran while `work` did. */
async function filesRun(work: () => Promise<unknown>): Promise<string[]> {
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  await work();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result
    .filter(({ url }) => (url.startsWith(SERVER) || url.startsWith(SHARED)) && !url.includes('/testing/') && !url.endsWith('.test.ts'))
    .filter(({ functions }) => functions.some(({ ranges }) => ranges[0]!.count > 0))
    .map(({ url }) => url.slice(url.startsWith(SERVER) ? SERVER.length : SHARED.length - 'shared/src/'.length))
    .sort();
}

it.each(['/api/products?limit=5', '/api/products/1', '/api/products/search?q=shirt&sort=priceLowHigh', '/api/products/category/jewelery'])(
  'answers a cached hit on %s from the response cache and the HTTP layer alone: no slice, no catalogue',
  async (path) => {
    const headers = { 'accept-encoding': 'gzip' };
    // Asked until kept, and its Accept-Encoding met before (the choice is memoised: memoised-encoding.ts).
    for (let tries = 0; tries < 3; tries += 1) await fetch(`${site.url}${path}`, { headers }).then((answer) => answer.arrayBuffer());
    const files = await filesRun(async () => {
      const answer = await fetch(`${site.url}${path}`, { headers });
      expect(answer.headers.get('x-cache')).toBe('HIT');
      await answer.arrayBuffer();
    });
    expect(files).toEqual([
      'http/answer.ts',
      'http/cors.ts',
      'http/memoised-encoding.ts',
      'http/metrics.ts',
      'http/rate-limit.ts',
      'http/response-cache.ts',
      'http/unreadable-requests.ts',
      'logger.ts',
    ]);
  },
);

it('answers a miss on /api/products?limit=N, the list held, through http/, products/, the caches and the list, each once', async () => {
  await fetch(`${site.url}/api/products`).then((answer) => answer.arrayBuffer());
  const files = await filesRun(async () => {
    // A limit asked for the first time: neither the response cache nor the list's bodies hold it.
    const answer = await fetch(`${site.url}/api/products?limit=7`, { headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers.get('x-cache')).toBe('HIT');
    await answer.arrayBuffer();
  });
  // The route reads and asks (products/); the catalogue cuts the body from the list and keeps it (caches/, list/).
  expect(files.filter((file) => !file.startsWith('http/'))).toEqual([
    'bodies/encoded-body.ts',
    'catalogue/caches/cached-catalogue.ts',
    'catalogue/caches/derived-body-cache.ts',
    'catalogue/caches/freshness.ts',
    'catalogue/caches/read-through-cache.ts',
    'catalogue/list/catalogue-list.ts',
    'catalogue/list/catalogue-queries.ts',
    'logger.ts',
    'products/list-options.ts',
    'products/products-routes.ts',
    'tracing/spans.ts',
  ]);
  // Express's way in for a request the response cache does not hold: guards, context, log line, headers, the route.
  expect(files.filter((file) => file.startsWith('http/'))).toHaveLength(13);
});
