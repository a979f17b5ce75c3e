import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The data-layer constants of docs/product.md, "Data and freshness": fresh for 5 minutes, unused data dropped after 5 minutes. */
export const STALE_TIME_MS = 5 * 60 * 1000;
export const GC_TIME_MS = 5 * 60 * 1000;
const MAX_RETRIES = 3;
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Retry only what a retry can fix: a network failure (fetch rejects, no ApiError) or a 5xx. A 4xx is the
 * server's final word ('Invalid Product ID', 'Product not found'), so it is shown at once.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  return !(error instanceof ApiError) || error.status >= 500;
}

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, gcTime: GC_TIME_MS, retry: shouldRetry, retryDelay },
    },
  });
}
