import NodeCache from 'node-cache';
import type { Logger } from '../../logger.js';
import type { CacheStatus } from '../../outcomes/cache-status.js';
import { FreshnessRule, type Lookup } from './freshness.js';
import type { EncodedBody } from '../../bodies/encoded-body.js';
import { type LoadedValue, type SharedCopies, SharedFill } from './shared-fill.js';

/** A value as the cache hands it out, with how the lookup found it (freshness.ts), which the HTTP layer says. */
export interface CacheEntry<T> extends Lookup {
  /** The source's validated value (still holding the source's own image locations). */
  value: T;
  /** The public JSON of `value`, prepared when it was stored. */
  body: EncodedBody;
}

export interface ReadThroughCacheOptions<T> {
  ttlSeconds: number;
  staleMaxSeconds: number;
  /** Builds the public body of a value; called once per fill, never on a hit. */
  prepare: (value: T) => Promise<EncodedBody>;
  logger: Logger;
  /** Milliseconds since the epoch; injectable so tests can move time without waiting. */
  now?: () => number;
  /** Copies shared with other replicas (docs/scaling.md); absent: this process's memory only. */
  shared?: SharedCopies<T>;
  /**
   * For values owned by their holders (a list: catalogue-list.ts): the cache holds each value it stores, a value it
   * hands a loader, and each value `get` hands out, which that caller releases; and releases each value it stops
   * storing and each value handed to it that it does not store. Without it, values are plain data.
   */
  ownership?: { hold: (value: T) => void; release: (value: T) => void };
}

/**
 * A loader resolves `null` when the source says definitively that the key does not exist. `held` is the value the
 * cache stores under the key, if any (held for the loader while it runs): a source may find it unchanged and resolve
 * it again. What it resolves is handed to the cache with one hold.
 */
export type Loader<T> = (held: T | undefined) => Promise<T | null>;

/** What the cache stores under a key: the value, its prepared body, and when the source gave it. */
interface Stored<T> {
  value: T;
  body: EncodedBody;
  storedAt: number;
}

/** What a fill stored, and whether it came from the source or another replica's copy. */
type StoredFrom<T> = Stored<T> & Pick<LoadedValue<T>, 'from'>;

/**
 * The freshness rule (freshness.ts) over any kind of value: a STALE copy's background refresh is one at a time, its
 * failure logged while the copy keeps being served; concurrent misses share one request.
 *
 * Failures are never stored. A definitive "does not exist" is not stored either (the key space of ids is
 * unbounded, and the upstream responds to it cheaply) and evicts what was stored under that key.
 */
export class ReadThroughCache<T> {
  readonly #entries: NodeCache;
  readonly #inFlight = new Map<string, Promise<StoredFrom<T> | null>>();
  readonly #rule: FreshnessRule;
  readonly #prepare: (value: T) => Promise<EncodedBody>;
  readonly #logger: Logger;
  readonly #shared: SharedFill<T> | undefined;
  readonly #hold: (value: T) => void;
  readonly #release: (value: T) => void;

  constructor(options: ReadThroughCacheOptions<T>) {
    this.#rule = new FreshnessRule({ ttlMs: options.ttlSeconds * 1000, staleMaxMs: options.staleMaxSeconds * 1000, now: options.now });
    this.#prepare = options.prepare;
    this.#logger = options.logger;
    this.#hold = options.ownership?.hold ?? (() => {});
    this.#release = options.ownership?.release ?? (() => {});
    // With caching off nothing is stored, so there is nothing to share, and claims would only make replicas queue.
    this.#shared =
      options.shared && this.#rule.usableMs > 0
        ? new SharedFill({ copies: options.shared, usableMs: this.#rule.usableMs, now: this.#rule.now, logger: this.#logger })
        : undefined;
    this.#entries = new NodeCache({
      // A clone per read would cost every hit; entries are never mutated after they are stored.
      useClones: false,
      // Only frees memory on the wall clock; the rules above are decided with `now`. 0 would mean "forever".
      stdTTL: Math.max(1, options.ttlSeconds + options.staleMaxSeconds),
      checkperiod: 600,
    });
    this.#entries.on('expired', (_key: string, entry: Stored<T>) => this.#release(entry.value));
  }

  /**
   * Resolves `null` when the source says the key does not exist; rejects with the source's error otherwise. With
   * `ownership`, the entry's value is held for the caller, who releases it.
   */
  async get(key: string, load: Loader<T>): Promise<CacheEntry<T> | null> {
    const entry = this.#entries.get<Stored<T>>(key);
    if (entry !== undefined) {
      const now = this.#rule.now();
      const status = this.#rule.statusOf(entry.storedAt, now);
      if (status === 'STALE') this.#refreshInBackground(key, load);
      if (status !== 'MISS') return this.#handOut(entry, status, now);
      this.#drop(key);
    }
    const filled = await this.#fill(key, load, (storedAt) => this.#rule.isUsable(storedAt));
    if (filled === null) return null;
    // A miss returns what the source just gave: as fresh as an entry gets, whatever the time spent preparing it.
    if (filled.from === 'source') return this.#handOut(filled, 'MISS', filled.storedAt);
    // A copy another replica stored keeps its own age: a HIT while fresh, else STALE with a refresh, as if held here.
    const now = this.#rule.now();
    if (this.#rule.isFresh(filled.storedAt, now)) return this.#handOut(filled, 'HIT', now);
    this.#refreshInBackground(key, load);
    return this.#handOut(filled, 'STALE', now);
  }

  /** The value stored under `key` while it may still be served, for a question asked at once (no hold is taken). */
  peek(key: string): T | undefined {
    const entry = this.#entries.get<Stored<T>>(key);
    return entry !== undefined && this.#rule.isUsable(entry.storedAt) ? entry.value : undefined;
  }

  /** Whether any value is held that could still be served. */
  hasAnyCopy(): boolean {
    const now = this.#rule.now();
    return this.#entries.keys().some((key) => {
      const entry = this.#entries.get<Stored<T>>(key);
      return entry !== undefined && this.#rule.isUsable(entry.storedAt, now);
    });
  }

  /** Resolves once every source request started so far has settled, whatever its outcome. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#inFlight.values());
  }

  /** Releases every value stored; the cache is not used after. */
  close(): void {
    for (const key of this.#entries.keys()) this.#drop(key);
    this.#entries.close();
  }

  /** `accept`: whether a shared copy filled at that time will do (any usable one for a miss, a fresh one for a refresh). */
  #fill(key: string, load: Loader<T>, accept: (storedAt: number) => boolean): Promise<StoredFrom<T> | null> {
    let pending = this.#inFlight.get(key);
    if (pending === undefined) {
      // What is stored now is the loader's to revalidate, held for it until it settles, whatever replaces it meanwhile.
      const held = this.#entries.get<Stored<T>>(key)?.value;
      if (held !== undefined) this.#hold(held);
      const loadHeld = () => load(held);
      pending = this.#loadAndStore(key, loadHeld, accept).finally(() => {
        this.#inFlight.delete(key);
        if (held !== undefined) this.#release(held);
      });
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #loadAndStore(key: string, load: () => Promise<T | null>, accept: (storedAt: number) => boolean): Promise<StoredFrom<T> | null> {
    const loaded = this.#shared ? await this.#shared.load(key, load, accept) : await this.#loadFromSource(load);
    if (loaded === null) {
      this.#drop(key);
      return null;
    }
    let body: EncodedBody;
    try {
      body = await this.#prepare(loaded.value);
    } catch (error) {
      this.#release(loaded.value);
      throw error;
    }
    const entry: Stored<T> = { value: loaded.value, body, storedAt: loaded.storedAt };
    const held = this.#entries.get<Stored<T>>(key);
    if (held === undefined || held.storedAt <= entry.storedAt) {
      this.#entries.set(key, entry);
      // The value replaced, or the very value stored again (the source found it unchanged): its older hold goes.
      if (held !== undefined) this.#release(held.value);
      return { ...entry, from: loaded.from };
    }
    // A refresh that found nothing newer than what is held (only possible with shared copies) keeps what is held.
    this.#release(entry.value);
    return { ...held, from: loaded.from };
  }

  /** Forgets what is held under `key`, if anything, and releases it. */
  #drop(key: string): void {
    const held = this.#entries.get<Stored<T>>(key);
    this.#entries.del(key);
    if (held !== undefined) this.#release(held.value);
  }

  async #loadFromSource(load: () => Promise<T | null>): Promise<LoadedValue<T> | null> {
    const value = await load();
    return value === null ? null : { value, storedAt: this.#rule.now(), from: 'source' };
  }

  #refreshInBackground(key: string, load: Loader<T>): void {
    if (this.#inFlight.has(key)) return;
    this.#fill(key, load, (storedAt) => this.#rule.isFresh(storedAt)).catch((error: unknown) => {
      this.#logger.warn({ err: error, key }, 'Background refresh failed; the cached copy is still served');
    });
  }

  /** The entry as it stands at `now`: its value (held for the caller) and body, how the lookup came out and its age. */
  #handOut(entry: Stored<T>, cacheStatus: CacheStatus, now: number): CacheEntry<T> {
    this.#hold(entry.value);
    return { value: entry.value, body: entry.body, ...this.#rule.lookup(entry.storedAt, cacheStatus, now) };
  }
}
