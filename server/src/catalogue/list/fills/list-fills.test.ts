import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf } from '../../../testing/body-bytes.js';
import { createCapturingLogger } from '../../../testing/capturing-logger.js';
import { fillProcesses, openFilesUnder } from '../../../testing/process-files.js';
import { startTestSite } from '../../../testing/test-site.js';
import type { CatalogueList } from '../catalogue-list.js';
import { createListFills, type Filled, type ListFillsOptions } from './list-fills.js';

const PRODUCTS = generateCatalogue(3_000);
const query = { search: 'ba', category: '', sort: 'nameAZ', page: 2 } as const;
const MAX_BYTES = 64 * 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'list-fills-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
/** Every file under the data folder, by its path inside it. */
const filesInData = (): string[] => readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).sort();

const listOf = (filled: Filled): CatalogueList => {
  if (!('list' in filled)) throw new Error(JSON.stringify(filled));
  return filled.list;
};

describe("the list's fills", () => {
  let upstream: UpstreamStub;
  beforeAll(async () => {
    upstream = await startUpstreamStub({ products: PRODUCTS });
  });
  afterAll(() => upstream.close());

  const createFills = (options: Partial<ListFillsOptions> = {}) =>
    createListFills({ logger: createCapturingLogger().logger, dataDir, silentMaxMs: 20_000, ...options });

  it('writes each fill into a new folder inside one of its own, removes a list with its last release, and the folder when closed', async () => {
    const fills = createFills();
    const fill = () => fills.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: MAX_BYTES, refresh: false });
    try {
      const first = listOf(await fill());
      const [folder] = readdirSync(dataDir);
      expect(folder).toMatch(new RegExp(`^catalogue-${hostname()}-${process.pid}-`));
      const written = ['list.json', 'list.json.br', 'list.json.gz', 'products.sqlite'];
      expect(filesInData()).toEqual([folder, `${folder}/list-1`, ...written.map((file) => `${folder}/list-1/${file}`)].sort());
      expect(first.size).toBe(PRODUCTS.length);

      const second = listOf(await fill());
      expect(filesInData().filter((file) => file.includes('list-2/'))).toHaveLength(4);
      first.hold();
      first.release();
      expect(filesInData().filter((file) => file.includes('list-1'))).toHaveLength(5);
      first.release();
      await expect.poll(() => filesInData().filter((file) => file.includes('list-1'))).toEqual([]);
      expect(() => first.release()).toThrow(/released more often than it was held/);
      expect(first.answers()).toBe(false);
      expect(bytesOf((await second.bodyOf({ kind: 'search', query })).identity).toString('utf8')).toMatch(/^\{"items":\[\{"id":/);
    } finally {
      await fills.close();
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('takes a fill process killed mid-fill for a failed fill, in one line with its cause: nothing of it is left, the list held answers on, the next fill works', async () => {
    const { logger, records } = createCapturingLogger();
    const registry = new Registry();
    const fills = createFills({ logger, registry });
    const fill = () => fills.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: MAX_BYTES, refresh: false });
    try {
      const served = listOf(await fill());
      const answer = bytesOf((await served.bodyOf({ kind: 'search', query })).identity).toString('utf8');
      const files = filesInData();
      expect(fillProcesses()).toEqual([]);

      // The fill's process waits for the upstream's body (half of it sent) when it is killed, as the kernel's
      // out-of-memory killer would.
      await upstream.setMode('stallMidBody');
      const asked = upstream.requestCount('/products');
      const failing = fill();
      await upstream.waitForRequests('/products', asked + 1);
      const [pid] = fillProcesses();
      process.kill(pid!, 'SIGKILL');
      const failed = await failing;
      expect(failed).toMatchObject({ ok: false, timedOut: false });
      expect(!failed.ok && failed.message).toMatch(/^the list's fill process was killed \(SIGKILL\)/);
      expect(records.filter((record) => record.process === 'fill')).toMatchObject([{ level: 50, cause: 'killed', signal: 'SIGKILL', pid }]);
      const deaths = (await registry.getSingleMetric('catalogue_fill_process_deaths_total')!.get()).values;
      expect(deaths).toMatchObject([{ labels: { cause: 'killed' }, value: 1 }]);
      const byOldName = (await registry.getSingleMetric('catalogue_list_thread_restarts_total')!.get()).values;
      expect(byOldName).toMatchObject([{ labels: { thread: 'fill', cause: 'killed' }, value: 1 }]);
      expect(fillProcesses()).toEqual([]);
      expect(filesInData()).toEqual(files);
      expect(bytesOf((await served.bodyOf({ kind: 'search', query })).identity).toString('utf8')).toBe(answer);

      await upstream.setMode('normal');
      const next = listOf(await fill());
      expect(bytesOf((await next.bodyOf({ kind: 'search', query })).identity).toString('utf8')).toBe(answer);
    } finally {
      await upstream.setMode('normal');
      await fills.close();
    }
  });

  it("runs a fill visitors wait for at the server's priority, and a refresh of a list held at the lowest", async () => {
    const fills = createFills();
    try {
      await upstream.setMode('stallMidBody');
      const priorities: Record<string, number> = {};
      for (const refresh of [false, true]) {
        const asked = upstream.requestCount('/products');
        const filling = fills.fill({ url: `${upstream.url}/products`, timeoutMs: 20_000, maxBytes: MAX_BYTES, refresh });
        // Asked the upstream, so it has read its job: its priority is set for the whole fill.
        await upstream.waitForRequests('/products', asked + 1);
        const [pid] = fillProcesses();
        priorities[refresh ? 'refresh' : 'waited for'] = getPriority(pid);
        process.kill(pid!, 'SIGKILL');
        expect(await filling).toMatchObject({ ok: false });
      }
      expect(priorities).toEqual({ 'waited for': getPriority(), refresh: 19 });
    } finally {
      await upstream.setMode('normal');
      await fills.close();
    }
  });

  it('ends a fill process that goes silent past its limit (stopped, as a hung process is), counts it as stalled, and leaves nothing', async () => {
    const { logger, records } = createCapturingLogger();
    const registry = new Registry();
    const fills = createFills({ logger, registry, silentMaxMs: 5_000 });
    try {
      await upstream.setMode('stallMidBody');
      const asked = upstream.requestCount('/products');
      const failing = fills.fill({ url: `${upstream.url}/products`, timeoutMs: 60_000, maxBytes: MAX_BYTES, refresh: false });
      await upstream.waitForRequests('/products', asked + 1);
      const [pid] = fillProcesses();
      process.kill(pid!, 'SIGSTOP');
      expect(await failing).toEqual({
        ok: false,
        message: "the list's fill process stalled (silent for 5000 ms, UPSTREAM_TIMEOUT_MS) and was ended",
        timedOut: true,
      });
      expect(records.filter((record) => record.process === 'fill')).toMatchObject([{ level: 50, cause: 'stalled', pid }]);
      const deaths = (await registry.getSingleMetric('catalogue_fill_process_deaths_total')!.get()).values;
      expect(deaths).toMatchObject([{ labels: { cause: 'stalled' }, value: 1 }]);
      const byOldName = (await registry.getSingleMetric('catalogue_list_thread_restarts_total')!.get()).values;
      expect(byOldName).toMatchObject([{ labels: { thread: 'fill', cause: 'stalled' }, value: 1 }]);
      expect(fillProcesses()).toEqual([]);
      // Only this process's own folder, empty.
      expect(filesInData().filter((file) => file.includes('list-'))).toEqual([]);
    } finally {
      await upstream.setMode('normal');
      await fills.close();
    }
  });

  it('removes the folders a dead process left on this host, never one of a process that runs or another host', async () => {
    const host = hostname();
    const left = [`catalogue-${host}-999999999-dead00`, `catalogue-${host}-${process.pid}-restrt`];
    // A running process's; another host's; a host whose name is this one's and a number; not mkdtemp's; not ours.
    const kept = [
      `catalogue-${host}-1-init00`,
      'catalogue-another-host-999999999-xxxxxx',
      `catalogue-${host}-2-999999999-xxxxxx`,
      `catalogue-${host}-999999999-toolong`,
      'unrelated',
    ];
    for (const name of [...left, ...kept]) {
      mkdirSync(join(dataDir, name));
      // A database file of a list that was never finished: never opened again, only removed.
      writeFileSync(join(dataDir, name, 'list-1.sqlite'), 'not a database');
    }
    const fills = createFills();
    try {
      listOf(await fills.load(Buffer.from(JSON.stringify(PRODUCTS.slice(0, 5)))));
      for (const name of left) expect(existsSync(join(dataDir, name)), name).toBe(false);
      for (const name of kept) expect(existsSync(join(dataDir, name)), name).toBe(true);
    } finally {
      await fills.close();
      for (const name of kept) rmSync(join(dataDir, name), { recursive: true, force: true });
    }
  });

  it('fails each fill in one line naming CATALOGUE_DATA_DIR when its folder cannot be written, and never throws', async () => {
    const fills = createFills({ dataDir: join(dataDir, 'no-such-folder') });
    try {
      expect(await fills.load(Buffer.from(JSON.stringify(PRODUCTS.slice(0, 5))))).toEqual({
        ok: false,
        message: expect.stringMatching(
          /^the catalogue's files cannot be written in .*no-such-folder \(CATALOGUE_DATA_DIR\): ENOENT/,
        ) as unknown,
        timedOut: false,
      });
    } finally {
      await fills.close();
    }
  });

  it('gives two servers sharing a data folder a folder each', async () => {
    const [one, two] = [createFills(), createFills()];
    try {
      const load = (fills: typeof one) => fills.load(Buffer.from(JSON.stringify(PRODUCTS.slice(0, 5))));
      listOf(await load(one));
      listOf(await load(two));
      expect(readdirSync(dataDir)).toHaveLength(2);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('a hundred refills', () => {
  it('changed, unchanged (304) and killed mid-way, leave the same files and descriptors as the first', { timeout: 300_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hundred-refills-'));
    const products = PRODUCTS.slice(0, 200);
    const site = await startTestSite({
      built: true,
      products,
      config: { CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '0', CATALOGUE_DATA_DIR: folder, LOG_LEVEL: 'fatal' },
    });
    /** What each descriptor but sockets and pipes (connections come and go) holds: files, and what else it opens. */
    const descriptors = () =>
      readdirSync('/proc/self/fd')
        .flatMap((fd) => {
          try {
            const target = readlinkSync(`/proc/self/fd/${fd}`);
            return /^(socket|pipe|anon_inode):/.test(target) ? [] : [target.replace(/list-\d+/, 'list-n')];
          } catch {
            return []; // closed between the two reads
          }
        })
        .sort();
    const state = () => ({
      files: readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .map((path) => path.replace(/list-\d+/, 'list-n'))
        .sort(),
      openUnderFolder: openFilesUnder(folder).length,
      descriptors: descriptors(),
      fills: fillProcesses().length,
    });
    const ask = () => fetch(`${site.url}/api/products/categories`).then((response) => response.status);
    try {
      expect(await ask()).toBe(200);
      let after: ReturnType<typeof state> | undefined;
      for (let refill = 0; refill < 100; refill++) {
        const kind = refill % 3;
        if (kind === 0) site.upstream.setProducts(products.map((product) => ({ ...product, title: `${product.title} ${refill}` })));
        if (kind === 2) await site.upstream.setMode('stallMidBody');
        // With no freshness, each request is answered from the list held while it refills.
        const answered = ask();
        if (kind === 2) {
          await expect.poll(() => fillProcesses().length, { timeout: 10_000 }).toBe(1);
          process.kill(fillProcesses()[0]!, 'SIGKILL');
        }
        expect(await answered).toBe(200);
        await site.catalogue.settled();
        if (kind === 2) await site.upstream.setMode('normal');
        await expect.poll(() => state().files.filter((path) => /^[^/]+\/list-n$/.test(path)).length).toBe(1);
        // The list held before is closed by its last holder, the request answered from it, once that answer is sent:
        // wait for that, not for a time, and then for everything to be as it was after the first refill.
        await expect.poll(() => state().openUnderFolder, { timeout: 10_000 }).toBe(1);
        after ??= state();
        await expect.poll(() => state(), { message: `after refill ${refill + 1}`, timeout: 10_000 }).toEqual(after);
      }
      expect(after).toMatchObject({ openUnderFolder: 1, fills: 0 });
    } finally {
      await site.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
