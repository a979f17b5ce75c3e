import { Gauge, type Registry } from 'prom-client';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import { connectRedis } from '../redis-connection.js';

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
  /** Where whether the store answers is exported (`http_rate_limit_store_up`). */
  registry: Registry;
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
 * every replica counts into it (docs/decisions/rate-limiter.md says why this library and not nginx). Its own
 * connection under the one policy (redis-connection.ts), with a shorter time limit than the shared cache's, since a
 * visitor's every request waits for it, and a second of counting here after a failure, so a hung Redis costs one
 * wait, not one per request.
 */
export function createRedisRateCounter({
  url,
  limit,
  windowMs,
  logger,
  registry,
  commandTimeoutMs = 100,
  retryAfterMs = 1_000,
}: RedisRateCounterOptions): SharedRateCounter {
  const upGauge = new Gauge({
    name: 'http_rate_limit_store_up',
    help: 'Whether the rate limit store (Redis, with REDIS_URL) answers: 1, or 0 while each replica counts alone',
    registers: [registry],
  });
  const connection = connectRedis({
    url,
    name: 'Rate limit store (Redis)',
    whileDown: 'counting in this replica until it answers again',
    whenBack: 'counting for the whole site',
    logger,
    commandTimeoutMs,
    skipAfterFailureMs: retryAfterMs,
    up: (up) => upGauge.set(up ? 1 : 0),
  });
  const limiter = new RateLimiterRedis({
    storeClient: connection.client,
    keyPrefix: 'catalogue:v1:rate-limit',
    points: limit,
    duration: windowMs / 1000,
  });
  // Past `points` the library rejects with a RateLimiterRes: a count like any other (rate-limit.ts decides).
  async function consume(clientKey: string): Promise<RateLimiterRes> {
    try {
      return await limiter.consume(clientKey);
    } catch (error) {
      if (error instanceof RateLimiterRes) return error;
      throw error;
    }
  }

  return {
    async count(clientKey) {
      const done = await connection.attempt(() => consume(clientKey));
      return done.ok ? { count: done.value.consumedPoints, msLeft: done.value.msBeforeNext } : undefined;
    },
    close: () => connection.close(),
  };
}
