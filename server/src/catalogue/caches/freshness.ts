import type { CacheStatus } from '../../outcomes/cache-status.js';

/** A copy as one lookup finds it: how the lookup came out, the copy's age, when it goes stale. */
export interface Lookup {
  cacheStatus: CacheStatus;
  /** Whole seconds since the copy was stored (or its source last confirmed it). */
  ageSeconds: number;
  /** Whole seconds of freshness left; 0 once stale. */
  freshForSeconds: number;
  /** When the copy was stored and when it stops being fresh, in milliseconds since the epoch (the two above, exact). */
  storedAt: number;
  freshUntil: number;
}

export interface FreshnessRuleOptions {
  /** CACHE_TTL_SECONDS, in milliseconds: how long a copy is served without asking the source. */
  ttlMs: number;
  /** STALE_MAX_SECONDS, in milliseconds: how long past that it is still served while the source is asked or fails. */
  staleMaxMs: number;
  /** Milliseconds since the epoch; tests inject their own clock. */
  now?: () => number;
}

/**
 * The one freshness rule of docs/api.md ("Caching"), which every cache of the catalogue's follows, the read-through
 * cache (read-through-cache.ts) and the image cache (images/image-cache.ts) alike:
 *
 * - a copy younger than the TTL is a HIT: the source is not asked;
 * - older, but within TTL + stale max, it is served at once as STALE while the cache refreshes it in the background
 *   (stale-while-revalidate and stale-if-error in one rule);
 * - older than that, or absent, it is a MISS: the request waits for the source.
 */
export class FreshnessRule {
  readonly ttlMs: number;
  /** TTL + stale max: how long a copy may be served at all. */
  readonly usableMs: number;
  readonly now: () => number;

  constructor({ ttlMs, staleMaxMs, now = Date.now }: FreshnessRuleOptions) {
    this.ttlMs = ttlMs;
    this.usableMs = ttlMs + staleMaxMs;
    this.now = now;
  }

  /** How a copy stored at `storedAt` is served now: HIT, STALE (refresh it), or MISS (absent or too old: wait). */
  statusOf(storedAt: number | undefined, at = this.now()): CacheStatus {
    if (storedAt === undefined) return 'MISS';
    const age = at - storedAt;
    if (age < this.ttlMs) return 'HIT';
    return age < this.usableMs ? 'STALE' : 'MISS';
  }

  /** Whether a copy stored at `storedAt` may still be served (fresh or stale). */
  isUsable(storedAt: number, at = this.now()): boolean {
    return at - storedAt < this.usableMs;
  }

  /** Whether a copy stored at `storedAt` is still fresh. */
  isFresh(storedAt: number, at = this.now()): boolean {
    return at - storedAt < this.ttlMs;
  }

  /** A lookup at `at` that found, as `cacheStatus`, a copy stored at `storedAt`. */
  lookup(storedAt: number, cacheStatus: CacheStatus, at = this.now()): Lookup {
    const ageMs = Math.max(0, at - storedAt);
    return {
      cacheStatus,
      ageSeconds: Math.floor(ageMs / 1000),
      freshForSeconds: Math.max(0, Math.floor((this.ttlMs - ageMs) / 1000)),
      storedAt,
      freshUntil: storedAt + this.ttlMs,
    };
  }
}
