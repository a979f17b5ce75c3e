import { describe, expect, it } from 'vitest';
import { createCapturingLogger } from '../../testing/capturing-logger.js';
import { createTestClock } from '@catalogue/testing/test-clock';
import { encodeJsonBody } from '../../bodies/encoded-body.js';
import { ReadThroughCache } from './read-through-cache.js';
import { bytesOf } from '../../testing/body-bytes.js';

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
  const cache = new ReadThroughCache<{ n: number }>({
    ttlSeconds: 10,
    staleMaxSeconds: 100,
    prepare: encodeJsonBody,
    logger,
    now: clock.now,
  });
  return { clock, records, cache };
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

  it('holds each value it stores, gives a loader and hands out, and releases each hold once: none left, none twice', async () => {
    const clock = createTestClock();
    type Owned = { n: number; holders: number };
    const cache = new ReadThroughCache<Owned>({
      ttlSeconds: 10,
      staleMaxSeconds: 100,
      prepare: (value) => encodeJsonBody(value.n),
      logger: createCapturingLogger().logger,
      now: clock.now,
      ownership: {
        hold: (value) => void (value.holders += 1),
        release: (value) => {
          if (value.holders === 0) throw new Error(`value ${value.n} released past its last hold`);
          value.holders -= 1;
        },
      },
    });
    // A loader hands over what it made with one hold.
    const made = (n: number) => ({ n, holders: 1 });
    const use = async (load: (held: Owned | undefined) => Promise<Owned>) => {
      const entry = (await cache.get('k', load))!;
      entry.value.holders -= 1; // the caller is done with it
      return entry;
    };
    const first = made(1);
    await use(() => Promise.resolve(first));
    expect(first.holders).toBe(1);

    // Stale: the refresh's loader is given the value held, held for it, and hands it back unchanged (a 304).
    clock.advanceSeconds(11);
    const given: (Owned | undefined)[] = [];
    await use((held) => {
      given.push(held);
      expect(held?.holders).toBe(3); // stored, handed out to the caller, given to the loader
      held!.holders += 1;
      return Promise.resolve(held!);
    });
    await cache.settled();
    expect(given).toEqual([first]);
    expect(first.holders).toBe(1);

    // Replaced by a new value: the old one's last hold goes.
    clock.advanceSeconds(11);
    const second = made(2);
    await use(() => Promise.resolve(second));
    await cache.settled();
    expect([first.holders, second.holders]).toEqual([0, 1]);

    // Past freshness plus stale max: dropped, and the loader is given nothing to revalidate.
    clock.advanceSeconds(200);
    const third = made(3);
    await use((held) => {
      expect(held).toBeUndefined();
      return Promise.resolve(third);
    });
    expect([second.holders, third.holders]).toEqual([0, 1]);

    // A value the loader made that the cache does not store (it failed to prepare) is released too.
    clock.advanceSeconds(200);
    const broken = { n: Number.NaN, holders: 1 };
    Object.defineProperty(broken, 'n', {
      get: () => {
        throw new Error('unpreparable');
      },
    });
    await expect(cache.get('k', () => Promise.resolve(broken))).rejects.toThrow('unpreparable');
    expect([third.holders, broken.holders]).toEqual([0, 0]);

    // Closing the cache releases what it stores.
    const fourth = made(4);
    await use(() => Promise.resolve(fourth));
    expect(fourth.holders).toBe(1);
    cache.close();
    expect(fourth.holders).toBe(0);
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
