import { MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import type { StubMode } from '@catalogue/testing/upstream-double';
import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillProcesses, openFilesUnder } from '../testing/process-files.js';
import { startTestSite, type TestSite } from '../testing/test-site.js';

/**
 * The catalogue's whole life as a model (docs/decisions/list-ownership.md): random sequences of time passing, the
 * upstream changing, failing or hanging, fills killed mid-way, and requests of every kind that reads the list, run
 * against the server as production builds it (real fills into real SQLite files, a real upstream double over HTTP
 * that answers `304` to its own ETag). After each command every answer is the one the model predicts, no fill process
 * is left, and the data folder holds the files of the list the model says is held, and nothing else: no other list's
 * file, and no descriptor but its database's.
 */

const TTL = 300;
const STALE = 600;
const PRODUCT_COUNT = 24;
const CATEGORIES = ['tools', 'toys', 'tea'];
/** A hang is cut at this: each costs the sequence this long. */
const TIMEOUT_MS = 500;
/** Sequences a run: the floor in CI. */
const RUNS = Number(process.env.LIST_LIFE_RUNS ?? 500);

/** The upstream's list at `version`: every title carries it, so any answer says which list it came from. */
const productsAt = (version: number): Product[] =>
  Array.from({ length: PRODUCT_COUNT }, (_, index) => ({
    id: index + 1,
    title: `Item ${index + 1} v${version}`,
    price: 1 + index,
    description: `Version ${version}`,
    category: CATEGORIES[index % CATEGORIES.length]!,
    image: `https://upstream.test/${index + 1}.jpg`,
    rating: { rate: 4, count: index },
  }));

type UpstreamMode = Extract<StubMode, 'normal' | 'status500' | 'hang'>;

/** A cached entry as the model knows it: the upstream's version it holds and when it was stored. */
interface Held {
  version: number;
  storedAt: number;
}

interface Model {
  now: number;
  version: number;
  mode: UpstreamMode;
  list?: Held;
  products: Map<number, Held>;
}

interface Real {
  site: TestSite;
  dataDir: string;
}

/** What a lookup serves: a version of the list, or the failure of a miss. */
type Served = number | 'unavailable' | 'timed-out';

/**
 * The catalogue's caching rule (docs/api.md, "Caching") for one entry: fresh is served; stale is served and refreshed
 * from the upstream (a 304 and a changed list alike leave the upstream's version stored at this moment); past its use,
 * or none, a miss that waits for the upstream, whose failure is the answer.
 */
function lookUp(model: Model, entry: Held | undefined): { served: Served; next: Held | undefined } {
  const age = entry === undefined ? Infinity : model.now - entry.storedAt;
  const fromUpstream = { version: model.version, storedAt: model.now };
  if (entry !== undefined && age < TTL * 1000) return { served: entry.version, next: entry };
  if (entry !== undefined && age < (TTL + STALE) * 1000) {
    return { served: entry.version, next: model.mode === 'normal' ? fromUpstream : entry };
  }
  if (model.mode === 'normal') return { served: model.version, next: fromUpstream };
  return { served: model.mode === 'hang' ? 'timed-out' : 'unavailable', next: undefined };
}

function lookUpList(model: Model): Served {
  const { served, next } = lookUp(model, model.list);
  if (next === undefined) delete model.list;
  else model.list = next;
  return served;
}

/** Every title of a list's answer carries the version it came from. */
const titlesOf = (products: readonly Product[], version: number) => {
  expect(products.map(({ title }) => title.endsWith(` v${version}`))).toEqual(products.map(() => true));
};

const get = (real: Real, path: string) => fetch(`${real.site.url}${path}`);

/** What the API answers for a list it cannot have: 502, or 504 when the upstream timed out (docs/api.md, "Errors"). */
async function expectListFailure(response: Response, served: Exclude<Served, number>) {
  expect(response.status).toBe(served === 'timed-out' ? 504 : 502);
  expect(await response.json()).toEqual({ error: served === 'timed-out' ? MESSAGES.catalogueTimeout : MESSAGES.catalogueUnavailable });
}

/** A request that reads the list: what it asks, and what its answer must be for the version served. */
const LIST_REQUESTS = {
  async whole(real: Real, served: Served) {
    const response = await get(real, '/api/products');
    if (typeof served !== 'number') return expectListFailure(response, served);
    expect(response.status).toBe(200);
    const products = (await response.json()) as Product[];
    expect(products.map(({ id }) => id)).toEqual(productsAt(served).map(({ id }) => id));
    titlesOf(products, served);
  },
  async byIdDescending(real: Real, served: Served) {
    const response = await get(real, '/api/products?sort=desc');
    if (typeof served !== 'number') return expectListFailure(response, served);
    expect(response.status).toBe(200);
    const products = (await response.json()) as Product[];
    expect(products.map(({ id }) => id)).toEqual(productsAt(served).map(({ id }) => PRODUCT_COUNT + 1 - id));
    titlesOf(products, served);
  },
  async search(real: Real, served: Served) {
    const response = await get(real, '/api/products/search?q=item%201&sort=nameAZ&category=toys');
    if (typeof served !== 'number') return expectListFailure(response, served);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: Product[]; total: number };
    const expected = productsAt(served).filter(({ title, category }) => category === 'toys' && title.toLowerCase().includes('item 1'));
    expect(page.total).toBe(expected.length);
    titlesOf(page.items, served);
  },
  async page(real: Real, served: Served) {
    const response = await get(real, '/products?q=item&sort=priceHighLow');
    const html = await response.text();
    if (typeof served !== 'number') return expect(response.status).toBe(503);
    expect(response.status).toBe(200);
    expect(html).toContain(`Item ${PRODUCT_COUNT} v${served}`);
  },
  async sitemap(real: Real, served: Served) {
    const response = await get(real, '/sitemap.xml');
    const xml = await response.text();
    if (typeof served !== 'number') return expect(response.status).toBe(503);
    expect(response.status).toBe(200);
    expect(xml).toContain(`/productdetails/${PRODUCT_COUNT}</loc>`);
  },
};

type ListRequest = keyof typeof LIST_REQUESTS;

/** After every command: no fill left running, and on disk only the list the model holds. */
async function expectNothingLeftOver(model: Model, real: Real) {
  await real.site.catalogue.settled();
  expect(fillProcesses()).toEqual([]);
  const lists = () => readdirSync(real.dataDir, { recursive: true, encoding: 'utf8' }).filter((path) => /(^|\/)list-\d+$/.test(path));
  // A list's last holder removes its folder without waiting for the disk: it is gone within moments.
  await expect.poll(() => lists().length, { timeout: 5_000 }).toBe(model.list === undefined ? 0 : 1);
  const open = openFilesUnder(real.dataDir);
  expect(open.map((file) => file.replace(/^.*\//, ''))).toEqual(model.list === undefined ? [] : ['products.sqlite']);
}

class PassTime implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.now += this.seconds * 1000;
    real.site.clock.advanceSeconds(this.seconds);
    await expectNothingLeftOver(model, real);
  }
  toString = () => `pass ${this.seconds} s`;
}

class ChangeUpstream implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    model.version += 1;
    real.site.upstream.setProducts(productsAt(model.version));
    await expectNothingLeftOver(model, real);
  }
  toString = () => 'the upstream changes its list';
}

class SetUpstream implements fc.AsyncCommand<Model, Real> {
  constructor(readonly mode: UpstreamMode) {}
  check = (model: Readonly<Model>) => model.mode !== this.mode;
  async run(model: Model, real: Real) {
    if (model.mode === 'hang') real.site.upstream.dropHangingRequests();
    model.mode = this.mode;
    await real.site.upstream.setMode(this.mode);
    await expectNothingLeftOver(model, real);
  }
  toString = () => `the upstream answers ${this.mode}`;
}

class AskList implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: ListRequest) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const served = lookUpList(model);
    await LIST_REQUESTS[this.kind](real, served);
    await expectNothingLeftOver(model, real);
  }
  toString = () => `ask for ${this.kind}`;
}

class AskProductPage implements fc.AsyncCommand<Model, Real> {
  constructor(readonly id: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { served, next } = lookUp(model, model.products.get(this.id));
    if (next === undefined) model.products.delete(this.id);
    else model.products.set(this.id, next);
    const response = await get(real, `/productdetails/${this.id}`);
    const html = await response.text();
    if (typeof served !== 'number') {
      expect(response.status).toBe(503);
    } else {
      expect(response.status).toBe(200);
      expect(html).toContain(`Item ${this.id} v${served}`);
      // Its related products come from the list: a lookup of its own, whose failure only leaves them out.
      const related = lookUpList(model);
      if (typeof related === 'number') expect(html).toMatch(new RegExp(`Item \\d+ v${related}`));
    }
    await expectNothingLeftOver(model, real);
  }
  toString = () => `ask for /productdetails/${this.id}`;
}

/** A fill killed half-way, as the out-of-memory killer would: only when a list request would fill. */
class KillFill implements fc.AsyncCommand<Model, Real> {
  check = (model: Readonly<Model>) =>
    model.mode === 'normal' && (model.list === undefined || model.now - model.list.storedAt >= TTL * 1000);
  async run(model: Model, real: Real) {
    const stale = model.list !== undefined && model.now - model.list.storedAt < (TTL + STALE) * 1000;
    if (!stale) delete model.list;
    await real.site.upstream.setMode('stallMidBody');
    const answer = get(real, '/api/products');
    await expect.poll(() => fillProcesses().length, { timeout: 10_000 }).toBe(1);
    process.kill(fillProcesses()[0]!, 'SIGKILL');
    const response = await answer;
    await real.site.catalogue.settled();
    await real.site.upstream.setMode('normal');
    if (stale) {
      expect(response.status).toBe(200);
      titlesOf((await response.json()) as Product[], model.list!.version);
    } else {
      await expectListFailure(response, 'unavailable');
    }
    await expectNothingLeftOver(model, real);
  }
  toString = () => 'a fill is killed mid-way';
}

const commands = [
  fc.constantFrom(1, TTL / 2, TTL + 1, TTL + STALE + 1).map((seconds) => new PassTime(seconds)),
  fc.constant(new ChangeUpstream()),
  fc.constantFrom<UpstreamMode>('normal', 'status500', 'hang').map((mode) => new SetUpstream(mode)),
  fc.constantFrom(...(Object.keys(LIST_REQUESTS) as ListRequest[])).map((kind) => new AskList(kind)),
  fc.integer({ min: 1, max: PRODUCT_COUNT }).map((id) => new AskProductPage(id)),
  fc.constant(new KillFill()),
];

describe("the catalogue's list over its whole life", () => {
  it(`answers every request as the model says, and leaves no file, descriptor or process behind (${RUNS} sequences)`, { timeout: 900_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 10 }), async (sequence) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'list-life-'));
        const site = await startTestSite({
          built: true,
          products: productsAt(1),
          config: {
            CACHE_TTL_SECONDS: String(TTL),
            STALE_MAX_SECONDS: String(STALE),
            UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
            RATE_LIMIT_PER_MINUTE: '0',
            CATALOGUE_DATA_DIR: dataDir,
            LOG_LEVEL: 'fatal',
          },
        });
        try {
          const model: Model = { now: 0, version: 1, mode: 'normal', products: new Map() };
          await fc.asyncModelRun(() => ({ model, real: { site, dataDir } }), sequence);
        } finally {
          site.upstream.dropHangingRequests();
          await site.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }),
      { numRuns: RUNS },
    );
  });
});
