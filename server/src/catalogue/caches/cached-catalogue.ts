import type { Product } from '@catalogue/shared/product';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { type EncodedBody, encodeJsonBody, inFiles } from '../../bodies/encoded-body.js';
import type { CatalogueList, ListQuestion } from '../list/catalogue-list.js';
import { createDerivedBodyCache } from './derived-body-cache.js';
import { productSchema } from '../upstream/product-schema.js';
import { ProductNotFoundError, type ProductSource } from '../sources/product-source.js';
import { toPublicProduct } from '../list/public-product.js';
import { type CacheEntry, ReadThroughCache } from './read-through-cache.js';
import type { SharedStore } from './shared-store.js';

export type { CacheEntry } from './read-through-cache.js';
export type { CatalogueList, ListQuestion, ListSelection, ProductsPageContent } from '../list/catalogue-list.js';

export interface CachedCatalogueOptions {
  source: ProductSource;
  /** The cache settings, taken straight from the checked configuration so no caller maps them by hand. */
  config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds' | 'upstreamTimeoutMs'>;
  logger: Logger;
  /** Milliseconds since the epoch; tests inject their own clock. */
  now?: () => number;
  /**
   * A store shared with other replicas (Redis, with REDIS_URL): list and product copies are shared through it.
   * The catalogue closes it when it is closed.
   */
  sharedStore?: SharedStore;
}

/** What the routes ask for. Errors are the source's: ProductNotFoundError or UpstreamError. */
export interface CachedCatalogue {
  /** 'http' or 'embedded', for logs. */
  readonly sourceName: string;
  /**
   * `use` run with the list (its size, categories and bodies, and the questions asked of it: catalogue-list.ts), held
   * for it until what it returns settles: no list closes while a request asks it questions across awaits. Rejects
   * with the source's error when there is no list to use.
   */
  withList<R>(use: (entry: CacheEntry<CatalogueList>) => Promise<R>): Promise<R>;
  /**
   * The body answering `question`, cut from the list once per list fill and kept with it (derived-body-cache.ts), with
   * the list's entry (its freshness is the body's). A body in files comes with `release`, to call once it is sent:
   * the list is held until then.
   */
  listBody(question: ListQuestion): Promise<ListBody>;
  getProduct(id: number): Promise<CacheEntry<Product>>;
  /** Whether catalogue requests can be answered now, and why not (readiness: docs/operations.md, "Probes and metrics"). */
  readiness(): Promise<Readiness>;
  /** Whether the shared store responds ('up' or 'down', for readiness), or 'off' without one. */
  sharedCacheState(): 'up' | 'down' | 'off';
  /** Resolves when every source request started so far has settled (tests, shutdown). */
  settled(): Promise<void>;
  close(): void;
}

const LIST_KEY = 'list';

/** A body cut from the list, with the entry it was cut from. */
export interface ListBody {
  entry: CacheEntry<CatalogueList>;
  body: EncodedBody;
  /** For a body in files: lets the list go once the body is sent. */
  release?: () => void;
}

/**
 * Room for the bodies cut from a large list: a 5,000-product list is about 2.3 MB of JSON, 2.8 MB with its gzip and
 * brotli bodies, and most views (a category, a short limit, a page of 24 products at some 20 KB) are a small part of it.
 */
const LIST_BODIES_MAX_BYTES = 24 * 1024 * 1024;

/**
 * Ready: a list is held that answers a question, or none is held and one could be had now (filled, or a copy), or
 * product copies are held. Not ready: the list held does not answer (`list_broken`), or nothing is held and the
 * source fails (`unavailable`).
 */
export type Readiness = { ready: true } | { ready: false; reason: 'list_broken' | 'unavailable'; message: string };

/**
 * How long one replica may hold the claim on a fill before the others ask the source themselves: the source's own
 * time limit, plus a second for storing the copy.
 */
const CLAIM_MARGIN_MS = 1_000;

/** A product's shared copy: its JSON, which must have the shape the source's value had when it was stored. */
const productCopies = {
  encode: (product: Product) => Promise.resolve(Buffer.from(JSON.stringify(product), 'utf8')),
  decode(json: Buffer) {
    let value: unknown;
    try {
      value = JSON.parse(json.toString('utf8'));
    } catch {
      return Promise.resolve(undefined);
    }
    const result = productSchema.safeParse(value);
    return Promise.resolve(result.success ? result.data : undefined);
  },
};

/** The list's shared copy: its JSON, made from the list's database and read in a fill's process (list-fills.ts). */
function listCopies(source: ProductSource) {
  return {
    encode: (list: CatalogueList) => list.copyJson(),
    decode: (json: Buffer) => source.listFromCopy(json),
  };
}

/**
 * The read-through cache over a ProductSource, with the list and each product under separate keys. Bodies
 * are prepared from the public shape of the products (image rewritten to this server's image route), while
 * a cached product keeps the source's own image location for the image route. The list is held as the source
 * made it (a CatalogueList: its SQLite file, catalogue-list.ts), never as products in the server's process.
 */
export function createCachedCatalogue({ source, config, logger, now, sharedStore }: CachedCatalogueOptions): CachedCatalogue {
  const timing = {
    ttlSeconds: config.cacheTtlSeconds,
    staleMaxSeconds: config.staleMaxSeconds,
    ...(now === undefined ? {} : { now }),
  };
  const holdMs = config.upstreamTimeoutMs + CLAIM_MARGIN_MS;
  const list = new ReadThroughCache<CatalogueList>({
    ...timing,
    logger,
    // The list comes with its body, written by the fill that made the list (list-files.ts, catalogue-list.ts).
    prepare: (held) => Promise.resolve(held.body),
    ownership: { hold: (held) => held.hold(), release: (held) => held.release() },
    ...(sharedStore && { shared: { store: sharedStore, keyPrefix: 'list:', ...listCopies(source), holdMs } }),
  });
  const products = new ReadThroughCache<Product>({
    ...timing,
    logger,
    prepare: (product) => encodeJsonBody(toPublicProduct(product)),
    ...(sharedStore && { shared: { store: sharedStore, keyPrefix: 'product:', ...productCopies, holdMs } }),
  });

  async function getProduct(id: number): Promise<CacheEntry<Product>> {
    const entry = await products.get(String(id), () => source.getProduct(id));
    if (entry === null) throw new ProductNotFoundError(id);
    return entry;
  }

  async function withList<R>(use: (entry: CacheEntry<CatalogueList>) => Promise<R>): Promise<R> {
    const entry = await list.get(LIST_KEY, (held) => source.listProducts(held));
    // Only a loader that can resolve null yields null; listing never does.
    if (entry === null) throw new Error('the product list loader resolved null');
    try {
      return await use(entry);
    } finally {
      entry.value.release();
    }
  }

  const listBodies = createDerivedBodyCache(LIST_BODIES_MAX_BYTES);

  return {
    sourceName: source.name,

    withList,

    listBody: (question) =>
      withList(async (entry) => {
        const list = entry.value;
        const key = list.bodyKey(question);
        const body = key === null ? entry.body : await listBodies.get(key, entry.body, () => list.bodyOf(question), true);
        if (!inFiles(body)) return { entry, body };
        // Read from the list's files after this returns: the list is held until the body is sent.
        list.hold();
        return { entry, body, release: () => list.release() };
      }),

    getProduct,

    async readiness() {
      const held = list.peek(LIST_KEY);
      if (held !== undefined) {
        return held.answers()
          ? { ready: true }
          : { ready: false, reason: 'list_broken', message: 'the list held does not answer a question from its database' };
      }
      if (products.hasAnyCopy()) return { ready: true };
      // Asking for the list also warms the cache, so the first visitor after a deploy gets a hit.
      try {
        return await withList(({ value }) =>
          Promise.resolve<Readiness>(
            value.answers()
              ? { ready: true }
              : { ready: false, reason: 'list_broken', message: 'the list just filled does not answer a question from its database' },
          ),
        );
      } catch (error) {
        return { ready: false, reason: 'unavailable', message: error instanceof Error ? error.message : String(error) };
      }
    },

    sharedCacheState: () => (sharedStore === undefined ? 'off' : sharedStore.available ? 'up' : 'down'),

    async settled() {
      await Promise.all([list.settled(), products.settled()]);
    },

    close() {
      list.close();
      products.close();
      void sharedStore?.close();
      void source.close?.();
    },
  };
}
