import { productFacets } from '@catalogue/shared/product-filters';
import { categoriesOf } from '@catalogue/shared/categories';
import type { Product } from '@catalogue/shared/product';
import type { ProductSearchPage } from '@catalogue/shared/product-paging';
import { LARGE_CATALOGUE_SIZE, largeCatalogue } from '@catalogue/testing/generated-catalogue';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { dirname } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestSite, type TestSite } from './testing/test-site.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server in front of a 50,000-product upstream (25 MB of JSON, each record its own words), as production builds
 * it: past the 10 MiB the upstream body was once limited to, searched a page at a time, and refilled off the event
 * loop. CACHE_TTL_SECONDS=0 makes every request after the first serve the copy held and refill it in the background.
 */
/** Each refill downloads, parses, validates, indexes and compresses the 25 MB list again: seconds on two busy cores. */
const REFILLS = 3;

/** One request with node:http: the status, headers and the body's bytes as they were sent. */
function rawGet(url: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    httpGet(url, { headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe(`a ${LARGE_CATALOGUE_SIZE.toLocaleString('en')}-product catalogue`, () => {
  let site: TestSite;
  const products = largeCatalogue();
  const publicOf = (product: Product) => ({ ...product, image: `/api/products/${product.id}/image` });

  beforeAll(async () => {
    site = await startTestSite({ products, config: { CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '0' } });
  });
  afterAll(() => site.close());

  async function search(query: string): Promise<ProductSearchPage> {
    const response = await fetch(`${site.url}/api/products/search?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as ProductSearchPage;
  }

  it('loads, and its search finds a product far from the first page', async () => {
    const last = products.at(-1)!;
    const q = last.title.toUpperCase();
    expect(await search(new URLSearchParams({ q }).toString())).toEqual({
      items: [publicOf(last)],
      total: 1,
      page: 1,
      pageSize: 24,
      catalogueSize: LARGE_CATALOGUE_SIZE,
      facets: productFacets(products, { search: q, category: '' }, categoriesOf(products)),
    });
    const cheapest = [...products].sort((a, b) => a.price - b.price).slice(24, 48);
    expect((await search('sort=priceLowHigh&page=2')).items.map((product) => product.price)).toEqual(
      cheapest.map((product) => product.price),
    );
  });

  it('answers the whole list from its files on disk: identity, gzip and brotli the same JSON, HEAD and 304 without a body', async () => {
    const body = await site.catalogue.withList(({ value }) => Promise.resolve(value.body));
    expect(Buffer.isBuffer(body.identity)).toBe(false);
    const expected = JSON.stringify(products.map(publicOf));
    for (const encoding of ['identity', 'gzip', 'br']) {
      // node:http, not fetch: fetch would decode the body, and this reads the bytes as sent.
      const answer = await rawGet(`${site.url}/api/products`, { 'accept-encoding': encoding });
      expect(answer.headers['content-length'], encoding).toBe(String(answer.body.length));
      const json = encoding === 'gzip' ? gunzipSync(answer.body) : encoding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
      expect(json.toString('utf8') === expected, encoding).toBe(true);
    }
    const head = await rawGet(`${site.url}/api/products`, {}, 'HEAD');
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(expected));
    const etag = String(head.headers.etag);
    const notModified = await rawGet(`${site.url}/api/products`, { 'if-none-match': etag });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
  });

  it('answers the whole list by id, descending and ascending, from files written once, every encoding, again and again', async () => {
    const byId = (direction: 1 | -1, count = products.length) =>
      JSON.stringify(
        [...products]
          .sort((a, b) => direction * (a.id - b.id))
          .slice(0, count)
          .map(publicOf),
      );
    for (const [query, expected] of [
      ['sort=desc', byId(-1)],
      ['sort=asc', byId(1)],
      ['sort=desc&limit=10000', byId(-1, 10_000)],
    ] as const) {
      for (const encoding of ['identity', 'gzip', 'br', 'identity']) {
        const answer = await rawGet(`${site.url}/api/products?${query}`, { 'accept-encoding': encoding });
        expect(answer.status, query).toBe(200);
        const json = encoding === 'gzip' ? gunzipSync(answer.body) : encoding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
        expect(json.toString('utf8') === expected, `${query} ${encoding}`).toBe(true);
      }
    }
  });

  it('keeps answering /healthz, probed every 10 ms, while the list refills again and again', { timeout: 180_000 }, async () => {
    const probes: { at: number; ms: number; status: number }[] = [];
    const inFlight = new Set<Promise<void>>();
    const probe = () => {
      const sent = performance.now();
      const done = fetch(`${site.url}/healthz`).then(
        async (response) => {
          await response.arrayBuffer();
          probes.push({ at: performance.now(), ms: performance.now() - sent, status: response.status });
        },
        () => {
          probes.push({ at: performance.now(), ms: performance.now() - sent, status: 0 });
        },
      );
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    };
    const timer = setInterval(probe, 10);
    const refills: { from: number; to: number }[] = [];
    try {
      for (let refill = 0; refill < REFILLS; refill++) {
        // One refill at a time: a request while one runs joins it rather than starting another.
        await site.catalogue.settled();
        // A changed list (an unchanged one is a 304, and nothing is refilled): its first product's price moved.
        site.upstream.setProducts(
          products.map((product, index) => (index === 0 ? { ...product, price: product.price + refill + 1 } : product)),
        );
        const asked = site.upstream.requestCount('/products');
        // The copy held is served at once; its refill runs in the background.
        await search(`q=${refill}`);
        // Its revalidation, whose 200 is its download.
        await site.upstream.waitForRequests('/products', asked + 1);
        const from = performance.now();
        await site.catalogue.settled();
        refills.push({ from, to: performance.now() });
        console.info(`refill ${refill}: ${(performance.now() - from).toFixed(0)} ms`);
      }
    } finally {
      clearInterval(timer);
      await Promise.all(inFlight);
    }
    expect(probes.every((answer) => answer.status === 200)).toBe(true);
    // A stalled event loop answers nothing while it is stalled: every refill must have let probes through.
    for (const { from, to } of refills) {
      expect(probes.filter((answer) => answer.at > from && answer.at < to).length).toBeGreaterThanOrEqual(2);
    }
    const slowest = Math.max(...probes.map((answer) => answer.ms));
    console.info(
      `/healthz through ${refills.length} refills of ${LARGE_CATALOGUE_SIZE} products: ${probes.length} probes, slowest ${slowest.toFixed(0)} ms`,
    );
  });

  it('streams the whole list from the files of the list it began with, though a refill replaces that list meanwhile', async () => {
    await site.catalogue.settled();
    const held = await site.catalogue.withList(({ value }) => Promise.resolve(value.body.identity));
    if (Buffer.isBuffer(held)) throw new Error('the whole list is expected in its files at this size');
    const folder = dirname(held.path);
    const expected = await rawGet(`${site.url}/api/products`, { 'accept-encoding': 'identity' });
    await site.catalogue.settled();
    const changed = products.map((product, index) => (index === 0 ? { ...product, title: 'Changed while streamed' } : product));
    site.upstream.setProducts(changed);
    try {
      // A client that reads the first bytes and stops: the rest waits in the list's files while this request starts
      // a refill (with no freshness, every request does) that replaces the list.
      const reading = await new Promise<IncomingMessage>((resolve, reject) => {
        httpGet(`${site.url}/api/products`, { headers: { 'accept-encoding': 'identity' } }, (response) => {
          response.pause();
          resolve(response);
        }).on('error', reject);
      });
      await site.catalogue.settled();
      expect(await site.catalogue.withList(({ value }) => Promise.resolve(value.body.identity))).not.toEqual(held);
      // Nothing else holds the list it began with: the response does, and its files are there until it ends.
      expect(existsSync(folder)).toBe(true);
      const chunks: Buffer[] = [];
      reading.on('data', (chunk: Buffer) => chunks.push(chunk));
      reading.resume();
      await once(reading, 'end');
      expect(Buffer.concat(chunks).equals(expected.body)).toBe(true);
      await expect.poll(() => existsSync(folder), { timeout: 5_000 }).toBe(false);
    } finally {
      site.upstream.setProducts(products);
      await site.catalogue.withList(() => Promise.resolve());
      await site.catalogue.settled();
    }
  });
});
