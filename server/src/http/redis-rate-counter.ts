import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';

/** A client's count in its current window, as every replica sharing the store sees it. */
export interface SharedCount {
  /** Requests counted in the window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/** Counts requests per client in a store every replica shares (rate-limit.ts asks it with REDIS_URL). */
export interface SharedRateCounter {
  /**
   * Counts one request of this client. Resolves within the command time limit, to `undefined` when the store
   * cannot answer (down, slow, or skipped for a moment after it failed): the caller counts in its own memory.
   * Never rejects.
   */
  count(clientKey: string): Promise<SharedCount | undefined>;
  close(): Promise<void>;
}

export interface RedisRateCounterOptions {
  url: string;
  /** Requests a client may make per window (RATE_LIMIT_PER_MINUTE). */
  limit: number;
  /** The window's length. */
  windowMs: number;
  logger: Logger;
  /**
   * The longest a request waits for Redis before it is counted here instead. A count is one small script on a
   * local network (well under a millisecond), so this only cuts off a Redis in trouble.
   */
  commandTimeoutMs?: number;
  /** After a failure, how long requests are counted here without asking Redis, so a hung Redis costs one wait, not one per request. */
  retryAfterMs?: number;
}

/**
 * Fixed windows per client in Redis through rate-limiter-flexible's RateLimiterRedis: one atomic script per request
 * (`SET key 0 EX <window> NX`, `INCRBY`, `PTTL`), so the window starts at the client's first request anywhere and
 * every replica counts into it (docs/decisions/rate-limiter.md says why this library and not nginx). Its own ioredis
 * connection, so the limiter's time limit and back-off are its own and not the shared cache's.
 */
export function createRedisRateCounter({
  url,
  limit,
  windowMs,
  logger,
  commandTimeoutMs = 100,
  retryAfterMs = 1_000,
}: RedisRateCounterOptions): SharedRateCounter {
  const redis = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    // Never retried or resent: a request counted twice is worse than one counted here.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnecting in the background is ioredis's default (exponential backoff up to 5 s).
  });
  // ioredis emits an error per failed reconnection; the outage is logged once, by `failed`.
  redis.on('error', () => undefined);
  // Past `points` the library rejects with a RateLimiterRes: read as a count like any other (rate-limit.ts decides).
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: 'catalogue:v1:rate-limit',
    points: limit,
    duration: windowMs / 1000,
  });

  let skipUntil = 0;
  let failing = false;

  function failed(error: unknown): undefined {
    skipUntil = performance.now() + retryAfterMs;
    if (!failing) {
      failing = true;
      logger.warn({ err: error }, 'Rate limit store (Redis) unavailable: counting in this replica until it answers again');
    }
    return undefined;
  }

  function counted(result: RateLimiterRes): SharedCount {
    if (failing) {
      failing = false;
      logger.info('Rate limit store (Redis) answering again: counting for the whole site');
    }
    return { count: result.consumedPoints, msLeft: result.msBeforeNext };
  }

  return {
    async count(clientKey) {
      if (performance.now() < skipUntil) return undefined;
      try {
        return counted(await limiter.consume(clientKey));
      } catch (error) {
        return error instanceof RateLimiterRes ? counted(error) : failed(error);
      }
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
