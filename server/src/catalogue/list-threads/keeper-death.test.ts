import type { ProductSearchPage } from '@catalogue/shared/product-paging';
import { LARGE_CATALOGUE_SIZE, largeCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServerProcess, startBuiltServer } from '../../testing/built-server-process.js';
import { endThreadFromInside, remoteInspector } from '../../testing/thread-inspector.js';

/**
 * The built server process (server/dist, built by Vitest's global set-up) in front of a 50,000-product upstream,
 * warmed, when its list keeper's thread ends from inside (`process.exit(1)` run in that thread through the
 * inspector): searches it never saw before, asked at once and for 3 s after, each find their product, no answer is
 * a 5xx, readiness says what is served, and the death is logged and counted.
 */
const WATCHED_MS = 3_000;

/** The built server with its inspector open, and the inspector's address (which it writes to standard error). */
async function startServer(upstreamUrl: string): Promise<BuiltServerProcess & { inspectorUrl: string }> {
  const server = await startBuiltServer({
    env: { PRODUCTS_API_URL: upstreamUrl, RATE_LIMIT_PER_MINUTE: '0' },
    nodeArgs: ['--inspect=127.0.0.1:0'],
    stderr: 'pipe',
  });
  const inspectorUrl = await new Promise<string>((resolve) => {
    createInterface({ input: server.child.stderr! }).on('line', (line) => {
      const found = /Debugger listening on (ws:\S+)/.exec(line);
      if (found) resolve(found[1]!);
    });
  });
  return { ...server, inspectorUrl };
}

describe("the built server, when its list keeper's thread dies", () => {
  const products = largeCatalogue();
  let upstream: UpstreamStub;
  let server: BuiltServerProcess & { inspectorUrl: string };

  beforeAll(async () => {
    upstream = await startUpstreamStub({ products });
    server = await startServer(upstream.url);
  }, 60_000);
  afterAll(async () => {
    await server.kill();
    await upstream.close();
  });

  it('answers every new search, finding its product, stays ready, and logs and counts the death', { timeout: 120_000 }, async () => {
    const get = (path: string) => fetch(`${server.url}${path}`);
    // Warmed: the list filled and kept, a search and a search page answered.
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/api/products/search?q=a')).status).toBe(200);
    expect((await get('/products?q=a')).status).toBe(200);

    await endThreadFromInside('keeper-thread', await remoteInspector(server.inspectorUrl));
    const ended = performance.now();

    // A different product each time, from all over the list: an answer no cache holds.
    const answers: { ms: number; path: string; status: number; found: boolean }[] = [];
    for (let asked = 0; performance.now() - ended < WATCHED_MS; asked++) {
      const product = products[(asked * 7_919) % LARGE_CATALOGUE_SIZE]!;
      const q = encodeURIComponent(product.title);
      const search = await get(`/api/products/search?q=${q}`);
      const page = search.status === 200 ? ((await search.json()) as ProductSearchPage) : undefined;
      answers.push({
        ms: performance.now() - ended,
        path: `search ${q}`,
        status: search.status,
        found: page?.items.some((item) => item.id === product.id) ?? false,
      });
      const rendered = await get(`/products?q=${q}&page=1`);
      const html = await rendered.text();
      answers.push({
        ms: performance.now() - ended,
        path: `page ${q}`,
        status: rendered.status,
        found: html.includes(`/productdetails/${product.id}"`),
      });
      const ready = await get('/readyz');
      answers.push({ ms: performance.now() - ended, path: 'readyz', status: ready.status, found: true });
    }
    console.info(`${answers.length} answers in ${WATCHED_MS} ms after the keeper's thread ended`);
    // No 5xx at all, not only after 2 s: the list did not die with the thread.
    expect(answers.filter((answer) => answer.status !== 200 || !answer.found)).toEqual([]);
    expect(answers.filter((answer) => answer.path.startsWith('search')).length).toBeGreaterThan(3);

    const deaths = server.records.filter((record) => record.thread === 'keeper');
    expect(deaths).toMatchObject([{ level: 50, cause: 'exit', exitCode: 1, restartInMs: 100 }]);
    const metrics = await (await get('/metrics')).text();
    expect(metrics).toContain('catalogue_list_thread_restarts_total{thread="keeper",cause="exit"} 1');
  });
});
