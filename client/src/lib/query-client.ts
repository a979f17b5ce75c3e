import { dehydrate, hydrate, QueryClient, type DehydratedState, type Query } from '@tanstack/react-query';
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

/**
 * Marks a query the server filled from what it had already fetched (entry-server.tsx). A page the server rendered
 * with a failure ('We couldn’t load the products', 'Product not found') must hydrate showing that failure, as the
 * browser shows it after its own retries, not retry at once under the spinner: so a failure the server seeded is not
 * retried when its page mounts. The browser's own fetch ("Try again") replaces the query's options and so the mark,
 * and from then on it behaves like any other query.
 */
export const SEEDED_BY_SERVER = { seededByServer: true } as const;

function notSeededByServer(query: Query): boolean {
  return query.meta?.seededByServer !== true;
}

const QUERY_RULES = { staleTime: STALE_TIME_MS, retry: shouldRetry, retryDelay, retryOnMount: notSeededByServer };

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { ...QUERY_RULES, gcTime: GC_TIME_MS } } });
}

/**
 * The server's, for one render: the same rules, but nothing is ever fetched or retried there, and no garbage
 * collection timer is left behind (the client is dropped with the render).
 */
export function createServerQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { ...QUERY_RULES, gcTime: Infinity, retry: false } } });
}

interface SerializedApiError {
  status: number;
  message: string;
}

/**
 * The queries `include` picks, dehydrated as JSON for the page's state block, failures included (the page shows them)
 * with their API status and message. Not escaped for HTML: the server does that when it writes the block.
 */
export function serializeQueryState(queryClient: QueryClient, include: (query: Query) => boolean): string {
  const state = dehydrate(queryClient, { shouldDehydrateQuery: include });
  return JSON.stringify(state, (_key, value: unknown) =>
    value instanceof ApiError ? ({ status: value.status, message: value.message } satisfies SerializedApiError) : value,
  );
}

function reviveError(error: unknown): ApiError | null {
  if (!error || typeof error !== 'object') return null;
  const { status, message } = error as Partial<SerializedApiError>;
  return new ApiError(typeof status === 'number' ? status : 500, typeof message === 'string' ? message : '');
}

/**
 * Seeds the browser's cache with the state block (main.tsx, before hydrating). What the server fetched counts as
 * fetched now: the server's clock is not the browser's, and a cached page may have been rendered minutes ago, yet the
 * data is what the server chose to serve, so a hydrated page stays fresh for the usual 5 minutes instead of refetching
 * under the spinner at once.
 */
export function hydrateQueryState(queryClient: QueryClient, json: string, now = Date.now()): void {
  const state = JSON.parse(json) as DehydratedState;
  for (const { state: queryState } of state.queries) {
    if (queryState.dataUpdatedAt) queryState.dataUpdatedAt = now;
    if (queryState.errorUpdatedAt) queryState.errorUpdatedAt = now;
    if (queryState.error) queryState.error = reviveError(queryState.error);
    if (queryState.fetchFailureReason) queryState.fetchFailureReason = reviveError(queryState.fetchFailureReason);
  }
  hydrate(queryClient, state);
}
