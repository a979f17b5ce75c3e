import { describe, expect, it } from 'vitest';
import { FreshnessRule } from './freshness.js';

describe('the freshness rule', () => {
  const rule = new FreshnessRule({ ttlMs: 300_000, staleMaxMs: 60_000, now: () => 1_000_000 });

  it('serves a copy as a HIT up to the TTL, STALE up to TTL + stale max, and a MISS past it or when absent', () => {
    const storedAgo = (ms: number) => 1_000_000 - ms;
    expect(rule.statusOf(undefined)).toBe('MISS');
    expect(rule.statusOf(storedAgo(0))).toBe('HIT');
    expect(rule.statusOf(storedAgo(299_999))).toBe('HIT');
    expect(rule.statusOf(storedAgo(300_000))).toBe('STALE');
    expect(rule.statusOf(storedAgo(359_999))).toBe('STALE');
    expect(rule.statusOf(storedAgo(360_000))).toBe('MISS');
    expect([rule.isFresh(storedAgo(299_999)), rule.isFresh(storedAgo(300_000))]).toEqual([true, false]);
    expect([rule.isUsable(storedAgo(359_999)), rule.isUsable(storedAgo(360_000))]).toEqual([true, false]);
  });

  it('says a lookup’s age and freshness left in whole seconds, and the exact moments behind them', () => {
    expect(rule.lookup(1_000_000 - 12_500, 'HIT')).toEqual({
      cacheStatus: 'HIT',
      ageSeconds: 12,
      freshForSeconds: 287,
      storedAt: 987_500,
      freshUntil: 1_287_500,
    });
    // Past its freshness, 0 seconds left; a copy stored "later" than now (another replica's clock) is age 0.
    expect(rule.lookup(1_000_000 - 320_000, 'STALE')).toMatchObject({ ageSeconds: 320, freshForSeconds: 0 });
    expect(rule.lookup(1_000_500, 'HIT')).toMatchObject({ ageSeconds: 0, freshForSeconds: 300 });
  });
});
