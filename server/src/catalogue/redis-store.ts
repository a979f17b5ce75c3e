import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { SharedCacheCommand, SharedStoreMetrics } from '../http/metrics.js';
import type { Logger } from '../logger.js';
import type { FillClaim, SharedCopy, SharedStore } from './shared-store.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`, as checked by the configuration. */
  url: string;
  /**
   * What the cached answers are answers of (the upstream's base URL, or 'embedded'): replicas proxying different
   * upstreams can share one Redis without reading each other's copies.
   */
  namespace: string;
  logger: Logger;
  metrics: SharedStoreMetrics;
  /**
   * The longest a command may take before it counts as failed and the caller goes on without Redis. A hit from
   * Redis is a single GET on a local network (well under a millisecond), so 500 ms only cuts off a Redis that is
   * in trouble.
   */
  commandTimeoutMs?: number;
}

/** Deletes a claim only if it is still ours: a claim that expired may already belong to another replica. */
const RELEASE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * The shared store on Redis (ioredis). Copies are `<storedAt>\n<value's JSON>` under `<namespace>:copy:<key>` with an
 * expiry at the end of their usable life; claims are `SET NX PX` under `<namespace>:fill:<key>` holding this
 * process's token.
 *
 * Redis being down, slow or full never reaches a visitor: commands are not queued while disconnected (they fail at
 * once), each has a time limit, the client reconnects with exponential backoff by itself, and every failure is
 * counted; the first failure after a success and the first success after failures are logged, not each command.
 */
export function createRedisStore({ url, namespace, logger, metrics, commandTimeoutMs = 500 }: RedisStoreOptions): SharedStore {
  const prefix = `catalogue:v2:${createHash('sha256').update(namespace).digest('hex').slice(0, 16)}`;
  const token = randomUUID();
  const redis = new Redis(url, {
    // Every command, also one queued while the first connection is made, fails after this long.
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    // A command is never retried on another connection: the caller has the upstream to fall back on.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Retrying the connection in the background is ioredis's default (exponential backoff up to 5 s, with jitter).
  });

  let failing = false;
  metrics.setSharedCacheUp(false);
  redis.on('ready', () => {
    logger.info('Shared cache (Redis) connected');
    failing = false;
    metrics.setSharedCacheUp(true);
  });
  // ioredis emits an error for every failed reconnection attempt; without a listener each would be an unhandled
  // 'error' event. They are counted as an outage once, through `failed`.
  redis.on('error', (error: Error) => failed(error));
  redis.on('close', () => metrics.setSharedCacheUp(false));

  function failed(error: unknown): void {
    metrics.setSharedCacheUp(false);
    if (failing) return;
    failing = true;
    logger.warn({ err: error }, 'Shared cache (Redis) unavailable: serving from memory and the upstream; reconnecting in the background');
  }

  function succeeded(): void {
    if (!failing) return;
    failing = false;
    metrics.setSharedCacheUp(true);
    logger.info('Shared cache (Redis) answering again');
  }

  /** Runs one command; `undefined` (counted, and logged once per outage) when Redis cannot answer it. */
  async function attempt<T>(command: SharedCacheCommand, run: () => Promise<T>): Promise<T | undefined> {
    // During an outage, commands are not even queued: a visitor's request must not wait out a time limit each time.
    // (Before the first connection they are queued, bounded by the time limit, so a new replica uses Redis at once.)
    if (failing && redis.status !== 'ready') {
      metrics.recordSharedCacheCommand(command, 'error');
      return undefined;
    }
    try {
      const result = await run();
      succeeded();
      return result;
    } catch (error) {
      metrics.recordSharedCacheCommand(command, 'error');
      failed(error);
      return undefined;
    }
  }

  const copyKey = (key: string) => `${prefix}:copy:${key}`;
  const fillKey = (key: string) => `${prefix}:fill:${key}`;

  return {
    get available() {
      return redis.status === 'ready' && !failing;
    },

    async read(key) {
      const raw = await attempt('read', () => redis.getBuffer(copyKey(key)));
      if (raw === undefined) return undefined;
      const copy = raw === null ? undefined : decodeCopy(raw);
      metrics.recordSharedCacheCommand('read', copy === undefined ? 'miss' : 'hit');
      return copy;
    },

    async write(key, copy, keepMs) {
      const ms = Math.ceil(keepMs);
      if (ms <= 0) return;
      const stored = Buffer.concat([Buffer.from(`${copy.storedAt}\n`), copy.json]);
      const done = await attempt('write', () => redis.set(copyKey(key), stored, 'PX', ms));
      if (done !== undefined) metrics.recordSharedCacheCommand('write', 'ok');
    },

    async remove(key) {
      const done = await attempt('remove', () => redis.del(copyKey(key)));
      if (done !== undefined) metrics.recordSharedCacheCommand('remove', 'ok');
    },

    async claimFill(key, holdMs): Promise<FillClaim> {
      const reply = await attempt('claim', () => redis.set(fillKey(key), token, 'PX', Math.max(1, Math.ceil(holdMs)), 'NX'));
      if (reply === undefined) return 'unavailable';
      const claim = reply === 'OK' ? 'claimed' : 'taken';
      metrics.recordSharedCacheCommand('claim', claim === 'claimed' ? 'ok' : 'taken');
      return claim;
    },

    async releaseFill(key) {
      const done = await attempt('release', () => redis.eval(RELEASE_IF_OURS, 1, fillKey(key), token));
      if (done !== undefined) metrics.recordSharedCacheCommand('release', 'ok');
    },

    async close() {
      // quit() waits for Redis to answer, which a Redis that is down never does; disconnect() does not wait.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** A stored copy, or `undefined` for anything else (another program's key, a truncated value). */
function decodeCopy(raw: Buffer): SharedCopy | undefined {
  const newline = raw.indexOf(0x0a);
  const head = newline === -1 ? '' : raw.subarray(0, newline).toString('latin1');
  const storedAt = Number(head);
  return /^[0-9]+$/.test(head) && Number.isSafeInteger(storedAt) ? { storedAt, json: raw.subarray(newline + 1) } : undefined;
}
