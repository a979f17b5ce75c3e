import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, GC_TIME_MS, retryDelay, shouldRetry, STALE_TIME_MS } from './query-client';

describe('retry rule', () => {
  it.each([
    ['a network failure', new TypeError('fetch failed'), true],
    ['a 500', new ApiError(500, 'Internal server error'), true],
    ['a 502', new ApiError(502, 'Product not found'), true],
    ['a 504', new ApiError(504, 'Product not found'), true],
    ['a 400', new ApiError(400, 'Invalid Product ID'), false],
    ['a 404', new ApiError(404, 'Product not found'), false],
    ['a 429', new ApiError(429, 'Too many requests, please slow down'), false],
  ])('retries %s: %s', (_label, error, expected) => {
    expect(shouldRetry(0, error)).toBe(expected);
  });

  it('gives up after 3 retries', () => {
    const error = new ApiError(503, 'down');
    expect([0, 1, 2, 3].map((failures) => shouldRetry(failures, error))).toEqual([true, true, true, false]);
  });

  it('waits exponentially longer, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('createQueryClient', () => {
  it('keeps data fresh for 5 minutes and drops unused data after 5 minutes', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(STALE_TIME_MS).toBe(300_000);
    expect(queries?.staleTime).toBe(STALE_TIME_MS);
    expect(queries?.gcTime).toBe(GC_TIME_MS);
    expect(GC_TIME_MS).toBe(300_000);
    expect(queries?.retry).toBe(shouldRetry);
  });
});
