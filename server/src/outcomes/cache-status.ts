/**
 * How a cache lookup came out (catalogue/caches/read-through-cache.ts, images/image-cache.ts): a fresh copy, a fill that
 * just ran, or a copy past its freshness. The HTTP layer says it as `X-Cache` and counts by it (http/answer.ts,
 * access-log.ts, metrics.ts); declared here so that neither side imports the other for it.
 */
export type CacheStatus = 'HIT' | 'MISS' | 'STALE';
