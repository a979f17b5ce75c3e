import { Redis } from 'ioredis';
import type { Logger } from './logger.js';

/**
 * One connection to Redis and the one policy every user of Redis here follows (the shared cache,
 * catalogue/caches/redis-store.ts; the fleet's rate limit, http/redis-rate-counter.ts): Redis is an optimisation, never a
 * dependency, so a Redis that is down, slow or full costs a visitor at most one bounded wait and never an error.
 *
 * - Every command has a time limit, also one queued while the first connection is made.
 * - A command is never retried or resent on another connection: the caller has its own fallback (the upstream, or
 *   counting in this replica), and a command run twice (a count, a claim) is worse than one not run.
 * - After a failure, commands fail at once, without being sent, while the connection is down, and also for
 *   `skipAfterFailureMs` while it is up: a Redis that is connected but hung then costs one wait, not one per request.
 * - The connection is retried in the background by ioredis (exponential backoff up to 5 s, with jitter).
 * - The first failure after a success and the first success after failures are logged, not each command; `up`
 *   reports each change to the owner's metric.
 */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`, as checked by the configuration. */
  url: string;
  /** What this connection is for, as its log lines name it: `Shared cache (Redis)`. */
  name: string;
  /** What the owner does while Redis cannot answer, for the log line that says it went away. */
  whileDown: string;
  /** What the owner does again once Redis answers, for the log line that says it is back (optional). */
  whenBack?: string;
  logger: Logger;
  commandTimeoutMs: number;
  skipAfterFailureMs?: number;
  /** Told of each change: true once Redis answers, false when it stops. */
  up: (up: boolean) => void;
}

/** A command's outcome: its result, or `failed` (counted by the caller, logged here once per outage). */
export type Attempt<T> = { ok: true; value: T } | { ok: false };

export interface RedisConnection {
  /** The client, for a library that drives Redis itself (rate-limiter-flexible); commands go through `attempt`. */
  readonly client: Redis;
  /** Whether commands are being sent: connected, and no failure since the last success. */
  readonly available: boolean;
  /** Runs one command under the policy above. Never rejects. */
  attempt<T>(run: (redis: Redis) => Promise<T>): Promise<Attempt<T>>;
  close(): Promise<void>;
}

export function connectRedis({
  url,
  name,
  whileDown,
  whenBack,
  logger,
  commandTimeoutMs,
  skipAfterFailureMs = 0,
  up,
}: RedisConnectionOptions): RedisConnection {
  const redis = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  });

  let failing = false;
  let skipUntil = 0;
  up(false);
  redis.on('ready', () => {
    logger.info(`${name} connected`);
    failing = false;
    up(true);
  });
  // ioredis emits an error for every failed reconnection attempt; without a listener each would be an unhandled
  // 'error' event. They are one outage, logged once by `failed`.
  redis.on('error', (error: Error) => failed(error));
  redis.on('close', () => up(false));

  function failed(error: unknown): void {
    up(false);
    skipUntil = performance.now() + skipAfterFailureMs;
    if (failing) return;
    failing = true;
    logger.warn({ err: error }, `${name} unavailable: ${whileDown}`);
  }

  function succeeded(): void {
    if (!failing) return;
    failing = false;
    up(true);
    logger.info(whenBack === undefined ? `${name} answering again` : `${name} answering again: ${whenBack}`);
  }

  const skipping = () => failing && (redis.status !== 'ready' || performance.now() < skipUntil);

  return {
    client: redis,
    get available() {
      return redis.status === 'ready' && !failing;
    },
    async attempt(run) {
      // Before the first connection commands are queued (bounded by the time limit), so a new replica uses Redis at once.
      if (skipping()) return { ok: false };
      try {
        const value = await run(redis);
        succeeded();
        return { ok: true, value };
      } catch (error) {
        failed(error);
        return { ok: false };
      }
    },
    async close() {
      // quit() waits for Redis to answer, which a Redis that is down never does; disconnect() does not wait.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
