import { dehydrate, hydrate, QueryClient, type DehydratedState, type Query, type QueryState } from '@tanstack/react-query';
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
 * A page the server rendered with a failure ('We couldn’t load the products…', 'Product not found') must hydrate
 * showing that failure, as the browser shows one after its own retries, not retry at once under the spinner: a failure
 * that came from the server is not retried when its page mounts. The mark is this object as the query state's
 * `fetchMeta` (the meta of the fetch that made the state, here the server's); the browser's own next fetch of the
 * query ("Try again", another page asking for it) replaces it, and from then on the query is like any other.
 */
const FETCHED_BY_SERVER: NonNullable<QueryState['fetchMeta']> = {};

function notFetchedByServer(query: Query): boolean {
  return query.state.fetchMeta !== FETCHED_BY_SERVER;
}

const QUERY_RULES = { staleTime: STALE_TIME_MS, retry: shouldRetry, retryDelay, retryOnMount: notFetchedByServer };

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { ...QUERY_RULES, gcTime: GC_TIME_MS } } });
}

/**
 * The server's, for one render of data it already has: nothing is fetched there, so a failure is shown as it is,
 * never retried; and no garbage-collection timer is left behind (the client is dropped with the render).
 */
export function createServerQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { ...QUERY_RULES, gcTime: Infinity, retry: false, retryOnMount: false } } });
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
    queryState.fetchMeta = FETCHED_BY_SERVER;
  }
  hydrate(queryClient, state);
}
