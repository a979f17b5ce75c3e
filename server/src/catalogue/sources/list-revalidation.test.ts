import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { createHttpSource } from './http-source.js';
import type { ProductSource } from './product-source.js';

/** Past what is handed to the server's process: each fill of it runs in a process of its own. */
const PRODUCTS = generateCatalogue(3_000);

describe("the list's refills against an upstream that answers 304 to its own ETag", () => {
  let upstream: UpstreamStub;
  let source: ProductSource;
  const registry = new Registry();
  /** The counter's lines in /metrics's text, e.g. `{ not_modified: 1 }`. */
  const revalidations = async () =>
    Object.fromEntries(
      [...(await registry.metrics()).matchAll(/^catalogue_list_revalidations_total\{outcome="(\w+)"\} (\d+)$/gm)].map(
        ([, outcome, count]) => [String(outcome), Number(count)],
      ),
    );

  beforeAll(async () => {
    upstream = await startUpstreamStub({ products: PRODUCTS });
    source = createHttpSource({ baseUrl: upstream.url, timeoutMs: 20_000, logger: createLogger('silent'), registry });
  });
  afterAll(async () => {
    await source.close?.();
    await upstream.close();
  });

  it('revalidates the list held: a 304 hands it back (nothing written), a changed list is downloaded once', async () => {
    const first = await source.listProducts();
    const asked = upstream.requestCount('/products');
    const unchanged = await source.listProducts(first);
    // The very list held, with a hold of its own for the caller: a fill would have made another.
    expect(unchanged).toBe(first);
    first.release();
    expect(first.answers()).toBe(true);
    expect(upstream.requestCount('/products')).toBe(asked + 1);
    expect(upstream.notModifiedCount('/products')).toBe(1);
    expect(await revalidations()).toEqual({ not_modified: 1 });

    upstream.setProducts(PRODUCTS.slice(0, 2_900));
    const changed = await source.listProducts(first);
    expect(changed).not.toBe(first);
    expect(changed.size).toBe(2_900);
    // One request: the conditional one's 200 is the download.
    expect(upstream.requestCount('/products')).toBe(asked + 2);
    expect(upstream.notModifiedCount('/products')).toBe(1);
    expect(await revalidations()).toEqual({ not_modified: 1, modified: 1 });
    first.release();
    expect(first.answers()).toBe(false);
    // The new list's validators are the next refill's question.
    expect(await source.listProducts(changed)).toBe(changed);
    expect(upstream.notModifiedCount('/products')).toBe(2);
    changed.release();
    changed.release();
  });
});
