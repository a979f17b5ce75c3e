import { LRUCache } from 'lru-cache';
import { type EncodedBody, encodedSize, inFiles } from '../../bodies/encoded-body.js';

/**
 * Bodies derived from a catalogue entry (a rendered page, a view of the list), each kept with the entry it was
 * derived from. A body counts only while the catalogue still holds that very entry (the same prepared body,
 * compared by identity): once the catalogue refills, the body is derived again from the new data, so a fresh
 * fill never serves old content, and no timer or invalidation is needed to get there.
 *
 * Bounded by bytes (identity, gzip and brotli bodies together), least recently used first: search texts and
 * query parameters make the space of keys unbounded.
 */
export interface DerivedBodyCache {
  /**
   * The body for `key` derived from `madeFrom`: the kept one, the one being derived by another request (work on
   * one key from one body is shared), or a new one from `derive`, then kept when `keep` says so.
   */
  get(key: string, madeFrom: EncodedBody, derive: () => Promise<EncodedBody>, keep: boolean): Promise<EncodedBody>;
}

/** A body kept, with the entry body it was derived from. */
interface Derived {
  /**
   * Weak: once the catalogue has replaced this entry, nothing should keep it alive for a body that is no longer
   * valid anyway. The byte budget then bounds all the memory derived bodies hold.
   */
  madeFrom: WeakRef<EncodedBody>;
  derived: EncodedBody;
}

export function createDerivedBodyCache(maxBytes: number): DerivedBodyCache {
  const bodies = new LRUCache<string, Derived>({
    maxSize: maxBytes,
    sizeCalculation: ({ derived }) => encodedSize(derived),
  });
  const deriving = new Map<string, { madeFrom: EncodedBody; derived: Promise<EncodedBody> }>();

  function peek(key: string, madeFrom: EncodedBody): EncodedBody | undefined {
    const entry = bodies.get(key);
    return entry?.madeFrom.deref() === madeFrom ? entry.derived : undefined;
  }

  return {
    get(key, madeFrom, derive, keep) {
      const kept = peek(key, madeFrom);
      if (kept) return Promise.resolve(kept);
      const pending = deriving.get(key);
      if (pending?.madeFrom === madeFrom) return pending.derived;
      const derived = derive().then((body) => {
        // A body bigger than the whole budget is returned but not kept (lru-cache refuses it); nor is one in files (a
        // whole list in id order), which the list holds already and which costs nothing to hand out again.
        if (keep && !inFiles(body)) bodies.set(key, { madeFrom: new WeakRef(madeFrom), derived: body });
        return body;
      });
      const entry = { madeFrom, derived };
      deriving.set(key, entry);
      const forget = () => {
        if (deriving.get(key) === entry) deriving.delete(key);
      };
      derived.then(forget, forget);
      return derived;
    },
  };
}
