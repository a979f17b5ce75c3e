import type { Product } from '@catalogue/shared/product';
import type { ProductSearchPage } from '@catalogue/shared/product-paging';
import { largeCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_ENV } from '../../../../scripts/runtime-settings.mjs';
import { type BuiltServerProcess, startBuiltServer } from '../../testing/built-server-process.js';

/**
 * The built server process (server/dist, built by Vitest's global set-up) with the container's memory settings, in
 * front of a 50,000-product upstream whose list changes again and again: each refill's new list replaces the one
 * served, and the memory of the one replaced (its shared JSON and columns, its encoded bodies: some 50 MB here) is
 * given back, rather than held till some later collection, a list more at each refill (full-collection.ts).
 */
const REFILLS = 4;
/** Long enough for the tries again at 1, 2 and 4 s after a refill (full-collection.ts). */
const SETTLE_MS = 10_000;
const MB = 1024 * 1024;

function residentMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

describe('the built server, as refills replace a large list', () => {
  const products = largeCatalogue();
  const [first] = products as [Product, ...Product[]];
  let upstream: UpstreamStub;
  let server: BuiltServerProcess;

  beforeAll(async () => {
    upstream = await startUpstreamStub({ products });
    server = await startBuiltServer({
      env: {
        ...RUNTIME_ENV,
        PRODUCTS_API_URL: upstream.url,
        RATE_LIMIT_PER_MINUTE: '0',
        // Every request serves the list held and refills it in the background (one refill at a time).
        CACHE_TTL_SECONDS: '0',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await server.kill();
    await upstream.close();
  });

  /** The first product's price as the server's search answers it now. */
  async function priceServed(): Promise<number | undefined> {
    const response = await fetch(`${server.url}/api/products/search?${new URLSearchParams({ q: first.title }).toString()}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as ProductSearchPage;
    return page.items.find((item) => item.id === first.id)?.price;
  }

  /** The list changed upstream (its first product's price), then asked until the server serves the new one. */
  async function refillWithPrice(price: number): Promise<void> {
    upstream.setProducts(products.map((product) => (product === first ? { ...product, price } : product)));
    while ((await priceServed()) !== price) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('gives back the memory of each list replaced', { timeout: 180_000 }, async () => {
    const listMb = Buffer.byteLength(JSON.stringify(products)) / MB;
    expect(await priceServed()).toBe(first.price);
    // Held: one list served, replaced once, as it is from then on.
    await refillWithPrice(first.price + 1);
    const readings = [residentMb(server.child.pid!)];
    const spread = () => Math.max(...readings) - Math.min(...readings);
    for (let refill = 2; refill <= REFILLS; refill++) {
      await refillWithPrice(first.price + refill);
      // A list still answering a request when it is replaced is collected on a try 1, 2 or 4 s later.
      const deadline = performance.now() + SETTLE_MS;
      readings.push(residentMb(server.child.pid!));
      while (spread() >= listMb && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        readings[readings.length - 1] = residentMb(server.child.pid!);
      }
    }
    console.info(
      `RSS after refills 1 to ${REFILLS}: ${readings.map((mb) => mb.toFixed(0)).join(', ')} MB (the list's JSON ${listMb.toFixed(0)} MB)`,
    );
    // A list kept after it was replaced holds its JSON, its columns and its bodies: twice its JSON, and more. Left to
    // V8 the RSS rose and fell by 60–90 MB here, lists replaced kept till some later collection.
    expect(spread()).toBeLessThan(listMb);
  });
});
