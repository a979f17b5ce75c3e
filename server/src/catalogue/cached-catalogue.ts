import type { Product } from '@catalogue/shared/product';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { encodeJsonBody } from '../http/encoded-body.js';
import { productSchema } from './product-schema.js';
import { ProductNotFoundError, type ProductSource } from './product-source.js';
import { toPublicProduct } from './public-product.js';
import { preparedBodyOf } from './prepared-list.js';
import { type CacheEntry, ReadThroughCache } from './read-through-cache.js';
import type { SharedStore } from './shared-store.js';

export type { CacheEntry } from './read-through-cache.js';

export interface CachedCatalogueOptions {
  source: ProductSource;
  /** The cache settings, taken straight from the checked configuration so no caller maps them by hand. */
  config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds' | 'upstreamTimeoutMs'>;
  logger: Logger;
  /** Milliseconds since the epoch; tests inject their own clock. */
  now?: () => number;
  /**
   * A store shared with other replicas (Redis, with REDIS_URL): list and product answers are shared through it.
   * The catalogue closes it when it is closed.
   */
  sharedStore?: SharedStore;
}

/** What the routes ask for. Errors are the source's: ProductNotFoundError or UpstreamError. */
export interface CachedCatalogue {
  /** 'http' or 'embedded', for logs. */
  readonly sourceName: string;
  listProducts(): Promise<CacheEntry<Product[]>>;
  getProduct(id: number): Promise<CacheEntry<Product>>;
  /** What listProducts() would answer now if that is a cache HIT, else `undefined`; never asks the source. */
  peekList(): CacheEntry<Product[]> | undefined;
  /** What getProduct(id) would answer now if that is a cache HIT, else `undefined`; never asks the source. */
  peekProduct(id: number): CacheEntry<Product> | undefined;
  /** Whether a cached copy is held that could still be served (for readiness). */
  hasAnyCopy(): boolean;
  /** Whether the shared store answers ('up' or 'down', for readiness), or 'off' without one. */
  sharedCacheState(): 'up' | 'down' | 'off';
  /** Resolves when every source request started so far has settled (tests, shutdown). */
  settled(): Promise<void>;
  close(): void;
}

const LIST_KEY = 'list';

/**
 * How long one replica may hold the claim on a fill before the others ask the source themselves: the source's own
 * time limit, plus a second for storing the copy.
 */
const CLAIM_MARGIN_MS = 1_000;

const productListSchema = z.array(productSchema);

/** A shared copy must have the shape a source answer had when it was stored; anything else is ignored. */
function parseWith<T>(schema: z.ZodType<T>): (value: unknown) => T | undefined {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
}

/**
 * The read-through cache over a ProductSource, with the list and each product under separate keys. Bodies
 * are prepared from the public shape of the products (image rewritten to this server's image route), while
 * the cached values keep the source's own image location for the image route.
 */
export function createCachedCatalogue({ source, config, logger, now, sharedStore }: CachedCatalogueOptions): CachedCatalogue {
  const timing = {
    ttlSeconds: config.cacheTtlSeconds,
    staleMaxSeconds: config.staleMaxSeconds,
    ...(now === undefined ? {} : { now }),
  };
  const holdMs = config.upstreamTimeoutMs + CLAIM_MARGIN_MS;
  const list = new ReadThroughCache<Product[]>({
    ...timing,
    logger,
    // A large list's body was made on the worker that parsed it (list-fill-pool.ts); a small one's is made here.
    prepare: (products) => Promise.resolve(preparedBodyOf(products) ?? encodeJsonBody(products.map(toPublicProduct))),
    ...(sharedStore && { shared: { store: sharedStore, keyPrefix: 'list:', parse: parseWith(productListSchema), holdMs } }),
  });
  const products = new ReadThroughCache<Product>({
    ...timing,
    logger,
    prepare: (product) => encodeJsonBody(toPublicProduct(product)),
    ...(sharedStore && { shared: { store: sharedStore, keyPrefix: 'product:', parse: parseWith(productSchema), holdMs } }),
  });

  async function getProduct(id: number): Promise<CacheEntry<Product>> {
    const answer = await products.get(String(id), () => source.getProduct(id));
    if (answer === null) throw new ProductNotFoundError(id);
    return answer;
  }

  return {
    sourceName: source.name,

    async listProducts() {
      const answer = await list.get(LIST_KEY, () => source.listProducts());
      // Only a loader that can resolve null yields null; listing never does.
      if (answer === null) throw new Error('the product list loader resolved null');
      return answer;
    },

    getProduct,

    hasAnyCopy: () => list.hasAnyCopy() || products.hasAnyCopy(),
    sharedCacheState: () => (sharedStore === undefined ? 'off' : sharedStore.available ? 'up' : 'down'),
    peekList: () => list.peek(LIST_KEY),
    peekProduct: (id) => products.peek(String(id)),

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
