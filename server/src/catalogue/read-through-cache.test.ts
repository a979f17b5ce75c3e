import { describe, expect, it } from 'vitest';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { createTestClock } from '@catalogue/testing/test-clock';
import { encodeJsonBody } from '../bodies/encoded-body.js';
import { ReadThroughCache } from './read-through-cache.js';
import { bytesOf } from '../testing/body-bytes.js';

/** A loader whose values the test hands out one at a time. */
function controlledLoader<T>() {
  const pending: { resolve: (value: T | null) => void; reject: (error: Error) => void }[] = [];
  return {
    load: () => new Promise<T | null>((resolve, reject) => pending.push({ resolve, reject })),
    calls: () => pending.length,
    resolve: (index: number, value: T | null) => pending[index]?.resolve(value),
    reject: (index: number, error: Error) => pending[index]?.reject(error),
  };
}

function setUp() {
  const clock = createTestClock();
  const { logger, records } = createCapturingLogger();
  const letGo: { n: number }[] = [];
  const cache = new ReadThroughCache<{ n: number }>({
    ttlSeconds: 10,
    staleMaxSeconds: 100,
    prepare: encodeJsonBody,
    logger,
    now: clock.now,
    letGo: (value) => letGo.push(value),
  });
  return { clock, records, cache, letGo };
}

describe('ReadThroughCache', () => {
  it('gives concurrent misses for one key the same single load, and its failure too', async () => {
    const { cache } = setUp();
    const loader = controlledLoader<{ n: number }>();
    const first = Array.from({ length: 50 }, () => cache.get('k', loader.load));
    expect(loader.calls()).toBe(1);
    loader.reject(0, new Error('upstream down'));
    const outcomes = await Promise.allSettled(first);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);

    // The failure was not stored: the next miss loads again, and keys do not share loads.
    const again = cache.get('k', loader.load);
    const other = cache.get('other', loader.load);
    expect(loader.calls()).toBe(3);
    loader.resolve(1, { n: 1 });
    loader.resolve(2, { n: 2 });
    expect((await again)?.value).toEqual({ n: 1 });
    expect((await other)?.value).toEqual({ n: 2 });
  });

  it('prepares the body once per fill and hands the same bytes to every hit', async () => {
    const { cache } = setUp();
    const miss = await cache.get('k', () => Promise.resolve({ n: 1 }));
    const hit = await cache.get('k', () => Promise.resolve({ n: 2 }));
    expect(miss?.cacheStatus).toBe('MISS');
    expect(hit?.cacheStatus).toBe('HIT');
    expect(hit?.body).toBe(miss?.body);
    expect(hit && bytesOf(hit.body.identity).toString()).toBe('{"n":1}');
  });

  it('serves stale while one refresh runs, and logs (never throws) a failed refresh', async () => {
    const { cache, clock, records } = setUp();
    await cache.get('k', () => Promise.resolve({ n: 1 }));
    clock.advanceSeconds(11);
    const loader = controlledLoader<{ n: number }>();

    const stale = await Promise.all([cache.get('k', loader.load), cache.get('k', loader.load)]);
    expect(stale.map((entry) => entry?.cacheStatus)).toEqual(['STALE', 'STALE']);
    expect(stale[0]?.freshForSeconds).toBe(0);
    expect(loader.calls()).toBe(1);

    loader.reject(0, new Error('refresh failed'));
    await cache.settled();
    expect(records.map((record) => record.msg)).toEqual(['Background refresh failed; the cached copy is still served']);
    expect((await cache.get('k', loader.load))?.value).toEqual({ n: 1 });
  });

  it('says which value it let go of: the one a refresh replaced, or one dropped past its use, never one still held', async () => {
    const { cache, clock, letGo } = setUp();
    const first = { n: 1 };
    await cache.get('k', () => Promise.resolve(first));
    clock.advanceSeconds(11);
    // A refresh that hands back the very value held (a 304 renews the list it has) lets go of nothing.
    await cache.get('k', () => Promise.resolve(first));
    await cache.settled();
    expect(letGo).toEqual([]);
    clock.advanceSeconds(11);
    const second = { n: 2 };
    await cache.get('k', () => Promise.resolve(second));
    await cache.settled();
    expect(letGo).toEqual([first]);
    expect(letGo[0]).toBe(first);
    // Past freshness plus stale max: dropped, then filled afresh.
    clock.advanceSeconds(200);
    await cache.get('k', () => Promise.resolve({ n: 3 }));
    expect(letGo).toEqual([first, second]);
    expect(letGo[1]).toBe(second);
  });

  it('drops a copy past its freshness plus stale max, and reports copies it holds', async () => {
    const { cache, clock } = setUp();
    expect(cache.hasAnyCopy()).toBe(false);
    await cache.get('k', () => Promise.resolve({ n: 1 }));
    expect(cache.hasAnyCopy()).toBe(true);
    clock.advanceSeconds(110);
    expect(cache.hasAnyCopy()).toBe(false);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  });

  it('says when a copy was stored and until when it is fresh, to the millisecond, as its whole seconds say', async () => {
    const { cache, clock } = setUp();
    const stored = await cache.get('k', () => Promise.resolve({ n: 1 }));
    clock.advanceSeconds(4);
    const hit = await cache.get('k', () => Promise.reject(new Error('must not load')));
    expect(hit).toMatchObject({ cacheStatus: 'HIT', ageSeconds: 4, freshForSeconds: 6, storedAt: stored!.storedAt });
    expect(hit!.freshUntil - hit!.storedAt).toBe(10_000);
  });

  it('evicts the copy when the source says the key no longer exists', async () => {
    const { cache, clock } = setUp();
    await cache.get('k', () => Promise.resolve({ n: 1 }));
    clock.advanceSeconds(11);
    expect((await cache.get('k', () => Promise.resolve(null)))?.cacheStatus).toBe('STALE');
    await cache.settled();
    expect(await cache.get('k', () => Promise.resolve(null))).toBeNull();
  });
});
