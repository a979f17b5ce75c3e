import type { Product } from '@catalogue/shared/product';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createCapturingLogger } from '../../testing/capturing-logger.js';
import type { CatalogueList } from '../catalogue-list.js';
import { toPublicProduct } from '../public-product.js';
import { HANDED_OVER_MAX_BYTES } from './list-fill.js';
import { createListKeeper as createKeeper, type ListKeeper, type ListKeeperOptions } from './list-keeper.js';
import { endThreadFromInside } from '../../testing/thread-inspector.js';

/** About 1.4 MB of JSON: past what is handed over to the request thread, so the keeper's thread keeps it. */
const LARGE = generateCatalogue(3_000);
const query = { search: 'ba', category: '', sort: 'nameAZ', page: 2 } as const;
const text = (bytes: Buffer) => bytes.toString('utf8');
/**
 * The process's threads as the kernel counts them: each worker thread is one of them while it runs (two from the
 * TypeScript sources, where tsx's module hooks run on a thread of their own beside it).
 */
const threadCount = () => readdirSync('/proc/self/task').length;

/** Generated products whose public list's JSON is exactly `bytes` long: as many as fit, the last one's description padded. */
function catalogueOfJsonBytes(bytes: number): Product[] {
  const products: Product[] = [];
  let length = 1; // `[`, then each product's JSON and a `,` or the closing `]`
  for (const product of generateCatalogue(3_000)) {
    const grown = length + Buffer.byteLength(JSON.stringify(toPublicProduct(product))) + 1;
    if (grown > bytes) break;
    products.push(product);
    length = grown;
  }
  const last = products.at(-1)!;
  products[products.length - 1] = { ...last, description: last.description + 'a'.repeat(bytes - length) };
  return products;
}

const createListKeeper = (options: Partial<ListKeeperOptions> = {}) => createKeeper({ logger: createCapturingLogger().logger, ...options });

describe('the list keeper', () => {
  let upstream: UpstreamStub;
  let keeper: ListKeeper;

  beforeAll(async () => {
    upstream = await startUpstreamStub({ products: LARGE });
    keeper = createListKeeper();
  });
  afterAll(async () => {
    await keeper.close();
    await upstream.close();
  });

  const fillOf = (timeoutMs: number, by = keeper) => by.fill({ url: `${upstream.url}/products`, timeoutMs, maxBytes: 64 * 1024 * 1024 });

  async function fill(by = keeper): Promise<CatalogueList> {
    const filled = await fillOf(20_000, by);
    if (!filled.ok) throw new Error(filled.message);
    return filled.list;
  }

  /**
   * A refill of the list, held at the upstream while the threads are counted: how many more the process has while
   * it runs than once it is done (the keeper's thread, once started, stays for a while). A fill on a thread of its
   * own makes more; a fill on the keeper's thread, none.
   */
  async function threadsOfRefill(by = keeper): Promise<{ extraThreads: number; list: CatalogueList }> {
    await upstream.setMode('hang');
    const asked = upstream.requestCount('/products');
    const refilling = fill(by);
    await upstream.waitForRequests('/products', asked + 1);
    const whileRefilling = threadCount();

    await upstream.setMode('normal');
    upstream.releaseHangingRequests();
    const list = await refilling;
    return { extraThreads: whileRefilling - threadCount(), list };
  }

  it('keeps a large list on its thread, its body in memory both threads share, and answers what a request needs', async () => {
    upstream.setProducts(LARGE);
    const list = await fill();
    expect(list.body.identity.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(list.size).toBe(LARGE.length);
    const page = JSON.parse(text((await list.searchPage(query)).identity)) as { items: Product[]; total: number };
    expect(page.items).toHaveLength(24);
    expect(page.items.every((product) => product.image === `/api/products/${product.id}/image`)).toBe(true);
    const sitemap = await list.sitemap('https://shop.test', new Date(0), null);
    expect(text(sitemap!)).toContain(`https://shop.test/productdetails/${LARGE.length}`);
  });

  it('keeps the newest list only; one a newer fill replaced still answers, the same, from the memory it shares', async () => {
    upstream.setProducts(LARGE);
    const first = await fill();
    const answer = text((await first.searchPage(query)).identity);
    upstream.setProducts(LARGE.slice(0, 2_500));
    const second = await fill();
    expect(text((await first.searchPage(query)).identity)).toBe(answer);
    expect(JSON.parse(text((await second.searchPage(query)).identity))).toMatchObject({ catalogueSize: 2_500 });
  });

  it('hands a small list to the request thread whole', async () => {
    upstream.setProducts(FIXTURE_PRODUCTS);
    const list = await fill();
    expect(list.body.identity.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(JSON.parse(text(list.body.identity))).toHaveLength(FIXTURE_PRODUCTS.length);
    expect((await list.productsPage({ ...query, search: '' })).products).toHaveLength(FIXTURE_PRODUCTS.length);
  });

  it('refills a large list on a thread of its own, which is gone once the refill is done', async () => {
    upstream.setProducts(LARGE);
    await fill();
    const { extraThreads, list } = await threadsOfRefill();
    expect(extraThreads).toBeGreaterThan(0);
    expect(list.size).toBe(LARGE.length);
  });

  it("refills a small list on the keeper's thread: however many refills, none starts a thread of its own", async () => {
    upstream.setProducts(FIXTURE_PRODUCTS);
    const own = createListKeeper();
    try {
      // The first fill runs on a thread of its own (nothing says yet that the list is small); its refills do not.
      await fill(own);
      for (let refill = 1; refill <= 5; refill++) {
        const { extraThreads, list } = await threadsOfRefill(own);
        expect(extraThreads, `refill ${refill}`).toBe(0);
        expect(list.size).toBe(FIXTURE_PRODUCTS.length);
      }
    } finally {
      await own.close();
    }
  });

  it('treats a list whose JSON is HANDED_OVER_MAX_BYTES long as small and one a byte longer as large, in every respect', async () => {
    for (const [bytes, small] of [
      [HANDED_OVER_MAX_BYTES, true],
      [HANDED_OVER_MAX_BYTES + 1, false],
    ] as const) {
      const own = createListKeeper();
      upstream.setProducts(catalogueOfJsonBytes(bytes));
      try {
        await fill(own);
        const { extraThreads, list } = await threadsOfRefill(own);
        expect(list.body.identity.byteLength).toBe(bytes);
        // Its JSON in plain memory, or in memory shared with the keeper's thread.
        expect(list.body.identity.buffer instanceof SharedArrayBuffer, `${bytes}`).toBe(!small);
        // Its refill on the keeper's thread, or on a thread of its own.
        if (small) expect(extraThreads, `${bytes}`).toBe(0);
        else expect(extraThreads, `${bytes}`).toBeGreaterThan(0);
        // Held on this thread, or in memory this thread shares: it answers with the keeper's thread gone.
        await own.close();
        await expect(list.searchPage(query)).resolves.toBeDefined();
      } finally {
        await own.close();
      }
    }
  });

  it('makes a list from a shared copy, and refuses a copy that is not a list of valid products', async () => {
    const copy = Buffer.from(JSON.stringify(LARGE));
    const list = await keeper.load(copy);
    expect(text(await list!.copyJson())).toBe(text(copy));
    for (const junk of ['not json', '{}', '[{"id":"one"}]']) expect(await keeper.load(Buffer.from(junk))).toBeUndefined();
  });

  it('fills on a thread that is gone when the fill is: one that fails or stalls mid-body leaves the list served in place, and the next works', async () => {
    upstream.setProducts(LARGE);
    const served = await fill();
    const answer = text((await served.searchPage(query)).identity);
    // The keeper's thread holds the list served; a fill's own thread is gone when its fill settles.
    const threads = threadCount();
    for (const mode of ['cutMidBody', 'stallMidBody', 'badJson'] as const) {
      await upstream.setMode(mode);
      const failed = await fillOf(mode === 'stallMidBody' ? 300 : 20_000);
      expect(failed, mode).toMatchObject({ ok: false, timedOut: mode === 'stallMidBody' });
      expect(threadCount(), mode).toBe(threads);
      expect(text((await served.searchPage(query)).identity), mode).toBe(answer);
    }
    await upstream.setMode('normal');
    const next = await fill();
    expect(text((await next.searchPage(query)).identity)).toBe(answer);
    expect(threadCount()).toBe(threads);
  });

  it('ends a fill still running when it is closed, leaving no thread behind', async () => {
    const threads = threadCount();
    const closing = createListKeeper();
    await upstream.setMode('stallMidBody');
    const stalled = closing.fill({ url: `${upstream.url}/products`, timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
    await upstream.waitForRequests('/products', upstream.requestCount('/products') + 1);
    await closing.close();
    await expect(stalled).rejects.toThrow(/exited/);
    expect(threadCount()).toBe(threads);
    await upstream.setMode('normal');
  });
});

describe("the list's threads, supervised", () => {
  let upstream: UpstreamStub;
  beforeAll(async () => {
    upstream = await startUpstreamStub({ products: LARGE });
  });
  afterAll(() => upstream.close());

  const restarts = async (registry: Registry) =>
    (await registry.getSingleMetric('catalogue_list_thread_restarts_total')!.get()).values.map(({ labels, value }) => ({
      ...labels,
      value,
    }));

  it("answers from the list it holds while the keeper's thread is down, restarts it and gives it the list again, backing off when it dies again", async () => {
    const { logger, records } = createCapturingLogger();
    const registry = new Registry();
    const keeper = createListKeeper({ logger, registry });
    try {
      const filled = await keeper.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: 64 * 1024 * 1024 });
      if (!filled.ok) throw new Error(filled.message);
      const { list } = filled;
      const answer = text((await list.searchPage(query)).identity);
      const threads = threadCount();

      await endThreadFromInside('keeper-thread');
      // Asked at once, before and while it restarts: the same answer, every time.
      const searches = Array.from({ length: 20 }, (_, page) => list.searchPage({ ...query, page: page + 1 }));
      expect(text((await searches[1]!).identity)).toBe(answer);
      await Promise.all(searches);
      await expect.poll(() => records.filter((record) => record.thread === 'keeper')).toHaveLength(1);
      expect(records[0]).toMatchObject({ level: 50, thread: 'keeper', cause: 'exit', exitCode: 1, restartInMs: 100 });
      expect(records[0]!.msg).toMatch(/^The list keeper's thread exited \(code 1\).*answered on the request thread until it is restarted$/);
      expect(await restarts(registry)).toEqual([{ thread: 'keeper', cause: 'exit', value: 1 }]);
      // Restarted and holding the list again: the process has as many threads as before.
      await expect.poll(() => threadCount(), { timeout: 5_000 }).toBe(threads);
      expect(text((await list.searchPage(query)).identity)).toBe(answer);

      // Dead again soon after: twice as long before the next restart.
      await endThreadFromInside('keeper-thread');
      await expect.poll(() => records.filter((record) => record.thread === 'keeper')).toHaveLength(2);
      expect(records[1]).toMatchObject({ restartInMs: 200, deathsInARow: 2 });
      expect(text((await list.searchPage(query)).identity)).toBe(answer);
    } finally {
      await keeper.close();
    }
  });

  it("runs a small list's refill again on a thread of its own when the keeper's thread dies under it", async () => {
    const { logger, records } = createCapturingLogger();
    const keeper = createListKeeper({ logger });
    const fillOnce = () => keeper.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: 64 * 1024 * 1024 });
    upstream.setProducts(FIXTURE_PRODUCTS);
    try {
      // The first fill says the list is small: the next runs on the keeper's thread.
      expect(await fillOnce()).toMatchObject({ ok: true });
      await upstream.setMode('hang');
      const asked = upstream.requestCount('/products');
      const refilling = fillOnce();
      await upstream.waitForRequests('/products', asked + 1);
      await upstream.setMode('normal');
      await endThreadFromInside('keeper-thread');
      const refilled = await refilling;
      expect(refilled.ok && refilled.list.size).toBe(FIXTURE_PRODUCTS.length);
      expect(upstream.requestCount('/products')).toBe(asked + 2);
      expect(records.filter((record) => record.thread === 'keeper')).toMatchObject([{ cause: 'exit', exitCode: 1 }]);
    } finally {
      upstream.dropHangingRequests();
      upstream.setProducts(LARGE);
      await keeper.close();
    }
  });

  it('takes a fill thread that stops mid-fill for a failed fill, said in one line with its cause, and fills again next time', async () => {
    const { logger, records } = createCapturingLogger();
    const registry = new Registry();
    const keeper = createListKeeper({ logger, registry });
    const fillOnce = () => keeper.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: 64 * 1024 * 1024 });
    try {
      const served = await fillOnce();
      if (!served.ok) throw new Error(served.message);
      const answer = text((await served.list.searchPage(query)).identity);
      const threads = threadCount();

      // The fill thread waits for the upstream's body (half of it sent) when it is ended.
      await upstream.setMode('stallMidBody');
      const asked = upstream.requestCount('/products');
      const failing = fillOnce();
      await upstream.waitForRequests('/products', asked + 1);
      await endThreadFromInside('fill-thread');
      const failed = await failing;
      expect(failed).toMatchObject({ ok: false, timedOut: false });
      expect(!failed.ok && failed.message).toMatch(/^the list's fill thread exited \(code 1\); .*--max-old-space-size/);
      expect(records.filter((record) => record.thread === 'fill')).toMatchObject([{ level: 50, cause: 'exit', exitCode: 1 }]);
      expect(await restarts(registry)).toEqual([{ thread: 'fill', cause: 'exit', value: 1 }]);
      expect(threadCount()).toBe(threads);
      expect(text((await served.list.searchPage(query)).identity)).toBe(answer);

      await upstream.setMode('normal');
      const next = await fillOnce();
      if (!next.ok) throw new Error(next.message);
      expect(text((await next.list.searchPage(query)).identity)).toBe(answer);
    } finally {
      await upstream.setMode('normal');
      await keeper.close();
    }
  });
});
