import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../logger.js';
import type { SharedStore } from './shared-store.js';

/** How one kind of cached value is kept in a shared store. */
export interface SharedCopies<T> {
  store: SharedStore;
  /** Distinguishes this cache's keys from another's in the same store, e.g. `list:` and `product:`. */
  keyPrefix: string;
  /** The JSON of a value, as the store keeps it. */
  encode: (value: T) => Promise<Buffer>;
  /**
   * The value of JSON read back from the store, checked (another replica wrote it; it is data, not trusted code);
   * `undefined` when it is not a valid value.
   */
  decode: (json: Buffer) => Promise<T | undefined>;
  /**
   * How long a replica may hold the claim on a fill, and so how long the others wait for its copy before they ask
   * the source themselves: one source call's time limit plus a margin.
   */
  holdMs: number;
  /** How often a waiting replica looks for the copy; default 50 ms. */
  pollMs?: number;
}

/** A value to cache, where it came from and when the source gave it. */
export interface LoadedValue<T> {
  value: T;
  storedAt: number;
  from: 'shared' | 'source';
}

export interface SharedFillOptions<T> {
  copies: SharedCopies<T>;
  /** How long after its fill a copy may still be served (TTL + stale max); also how long the store keeps it. */
  usableMs: number;
  now: () => number;
  logger: Logger;
}

/**
 * Where a cache fill gets its value when replicas share a store: a copy another replica stored, if it is good
 * enough; otherwise the source, asked by one replica at a time.
 *
 * 1. A copy in the store that `accept`s (usable for a miss, fresh for a refresh) is taken as it is, with its own
 *    fill time, so the freshness and staleness rules count from the moment the source responded, on every replica.
 * 2. Otherwise this replica claims the fill. Claimed: it asks the source, stores the copy (or removes it on a
 *    definitive "does not exist"), then releases the claim. Taken by another replica: it waits for that replica's
 *    copy, claiming again if the claim ends without one (the source failed there), and asks the source itself
 *    only once the claim's time is up.
 * 3. The store unavailable (a read or claim just failed): it asks the source, as without a store, and tries no
 *    more commands for this fill, so trouble with the store costs one command's time limit per fill.
 *
 * Source failures propagate as they would without a store; store failures never do (SharedStore never rejects).
 */
export class SharedFill<T> {
  readonly #copies: SharedCopies<T>;
  readonly #usableMs: number;
  readonly #now: () => number;
  readonly #logger: Logger;

  constructor({ copies, usableMs, now, logger }: SharedFillOptions<T>) {
    this.#copies = copies;
    this.#usableMs = usableMs;
    this.#now = now;
    this.#logger = logger;
  }

  async load(key: string, fromSource: () => Promise<T | null>, accept: (storedAt: number) => boolean): Promise<LoadedValue<T> | null> {
    const { store, holdMs, pollMs = 50 } = this.#copies;
    const storeKey = this.#copies.keyPrefix + key;
    // Real time, not `now`: tests move `now` to age copies, and this bounds a wait the process really does.
    const waitUntil = performance.now() + holdMs;
    for (;;) {
      const shared = await this.#read(storeKey, accept);
      if (shared !== undefined) return shared;
      // The read just failed (Redis down or too slow): no claim, no write, each of which would wait as long again.
      if (!store.available) return this.#fromSource(storeKey, fromSource);
      const claim = await store.claimFill(storeKey, holdMs);
      if (claim === 'claimed') {
        try {
          return await this.#fromSource(storeKey, fromSource);
        } finally {
          await store.releaseFill(storeKey);
        }
      }
      if (claim === 'unavailable' || performance.now() >= waitUntil) return this.#fromSource(storeKey, fromSource);
      await delay(pollMs);
    }
  }

  /** A copy in the store that `accept`s, decoded; one it does not accept is never decoded (a list's is a fill). */
  async #read(storeKey: string, accept: (storedAt: number) => boolean): Promise<LoadedValue<T> | undefined> {
    const copy = await this.#copies.store.read(storeKey);
    if (copy === undefined || !accept(copy.storedAt)) return undefined;
    const value = await this.#copies.decode(copy.json);
    if (value === undefined) {
      this.#logger.warn({ key: storeKey }, 'Ignored a shared cache copy that is not a valid value');
      return undefined;
    }
    return { value, storedAt: copy.storedAt, from: 'shared' };
  }

  async #fromSource(storeKey: string, fromSource: () => Promise<T | null>): Promise<LoadedValue<T> | null> {
    const { store } = this.#copies;
    const value = await fromSource();
    if (value === null) {
      if (store.available) await store.remove(storeKey);
      return null;
    }
    const storedAt = this.#now();
    if (store.available) {
      try {
        await store.write(storeKey, { json: await this.#copies.encode(value), storedAt }, this.#usableMs);
      } catch (error) {
        // The value is this fill's to hand over: a copy that could not be made is logged, never the fill's failure.
        this.#logger.warn({ err: error, key: storeKey }, 'Could not share a copy of a value');
      }
    }
    return { value, storedAt, from: 'source' };
  }
}
