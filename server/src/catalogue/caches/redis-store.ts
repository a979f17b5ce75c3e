import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../../logger.js';
import { connectRedis } from '../../redis-connection.js';
import type { FillClaim, SharedCopy, SharedStore } from './shared-store.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`, as checked by the configuration. */
  url: string;
  /**
   * What the cached copies are copies of (the upstream's base URL, or 'embedded'): replicas proxying different
   * upstreams can share one Redis without reading each other's copies.
   */
  namespace: string;
  logger: Logger;
  /** Where the shared cache's figures are exported: its commands by outcome, and whether Redis responds. */
  registry: Registry;
  /**
   * The longest a command may take before it counts as failed and the caller goes on without Redis. A hit from
   * Redis is a single GET on a local network (well under a millisecond), so 500 ms only cuts off a Redis that is
   * in trouble.
   */
  commandTimeoutMs?: number;
}

type SharedCacheCommand = 'read' | 'write' | 'remove' | 'claim' | 'release';

/** Deletes a claim only if it is still ours: a claim that expired may already belong to another replica. */
const RELEASE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * The shared store on Redis, through the one connection policy (redis-connection.ts: time limits, no retries,
 * failing at once while down, one log line per outage). Copies are `<storedAt>\n<value's JSON>` under
 * `<namespace>:copy:<key>` with an expiry at the end of their usable life; claims are `SET NX PX` under
 * `<namespace>:fill:<key>` holding this process's token. Every command's outcome is counted.
 */
export function createRedisStore({ url, namespace, logger, registry, commandTimeoutMs = 500 }: RedisStoreOptions): SharedStore {
  const prefix = `catalogue:v2:${createHash('sha256').update(namespace).digest('hex').slice(0, 16)}`;
  const token = randomUUID();
  const commands = new Counter({
    name: 'catalogue_shared_cache_commands_total',
    help: 'Commands to the shared cache (Redis, with REDIS_URL) by command and outcome (hit, miss, ok, taken, error)',
    labelNames: ['command', 'outcome'] as const,
    registers: [registry],
  });
  const upGauge = new Gauge({
    name: 'catalogue_shared_cache_up',
    help: 'Whether the shared cache (Redis, with REDIS_URL) answers: 1 or 0',
    registers: [registry],
  });
  const connection = connectRedis({
    url,
    name: 'Shared cache (Redis)',
    whileDown: 'serving from memory and the upstream; reconnecting in the background',
    logger,
    commandTimeoutMs,
    up: (up) => upGauge.set(up ? 1 : 0),
  });

  const count = (command: SharedCacheCommand, outcome: 'hit' | 'miss' | 'ok' | 'taken' | 'error') => commands.inc({ command, outcome });

  /** Runs one command; `undefined`, counted as an error, when Redis does not respond to it. */
  async function attempt<T>(command: SharedCacheCommand, run: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    const done = await connection.attempt(run);
    if (done.ok) return done.value;
    count(command, 'error');
    return undefined;
  }

  const copyKey = (key: string) => `${prefix}:copy:${key}`;
  const fillKey = (key: string) => `${prefix}:fill:${key}`;

  return {
    get available() {
      return connection.available;
    },

    async read(key) {
      const raw = await attempt('read', (redis) => redis.getBuffer(copyKey(key)));
      if (raw === undefined) return undefined;
      const copy = raw === null ? undefined : decodeCopy(raw);
      count('read', copy === undefined ? 'miss' : 'hit');
      return copy;
    },

    async write(key, copy, keepMs) {
      const ms = Math.ceil(keepMs);
      if (ms <= 0) return;
      const stored = Buffer.concat([Buffer.from(`${copy.storedAt}\n`), copy.json]);
      const done = await attempt('write', (redis) => redis.set(copyKey(key), stored, 'PX', ms));
      if (done !== undefined) count('write', 'ok');
    },

    async remove(key) {
      const done = await attempt('remove', (redis) => redis.del(copyKey(key)));
      if (done !== undefined) count('remove', 'ok');
    },

    async claimFill(key, holdMs): Promise<FillClaim> {
      const reply = await attempt('claim', (redis) => redis.set(fillKey(key), token, 'PX', Math.max(1, Math.ceil(holdMs)), 'NX'));
      if (reply === undefined) return 'unavailable';
      const claim = reply === 'OK' ? 'claimed' : 'taken';
      count('claim', claim === 'claimed' ? 'ok' : 'taken');
      return claim;
    },

    async releaseFill(key) {
      const done = await attempt('release', (redis) => redis.eval(RELEASE_IF_OURS, 1, fillKey(key), token));
      if (done !== undefined) count('release', 'ok');
    },

    close: () => connection.close(),
  };
}

/** A stored copy, or `undefined` for anything else (another program's key, a truncated value). */
function decodeCopy(raw: Buffer): SharedCopy | undefined {
  const newline = raw.indexOf(0x0a);
  const head = newline === -1 ? '' : raw.subarray(0, newline).toString('latin1');
  const storedAt = Number(head);
  return /^[0-9]+$/.test(head) && Number.isSafeInteger(storedAt) ? { storedAt, json: raw.subarray(newline + 1) } : undefined;
}
