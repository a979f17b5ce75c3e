// The shared store against a real Redis (Debian's redis-server on a free port): what it keeps, how claims behave,
// and that a Redis that is down, paused or full only ever costs a bounded wait and a counted, logged failure.
import { createCapturingLogger } from '../../testing/capturing-logger.js';
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedisServer } from '@catalogue/testing/redis-server';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedisStore } from './redis-store.js';
import type { SharedStore } from './shared-store.js';

const redisMissing = findRedisServer() === undefined && !process.env.CI;
if (redisMissing) console.warn(`Skipping the Redis store tests: redis-server is not installed (${REDIS_INSTALL_HINT})`);

let redis: RedisServer;
let admin: Redis;
const stores: SharedStore[] = [];

beforeEach(async () => {
  if (redisMissing) return;
  redis = await startRedisServer();
  admin = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
});

afterEach(async () => {
  if (redisMissing) return;
  await Promise.all(stores.splice(0).map((store) => store.close()));
  admin.disconnect();
  await redis.stop();
});

function store(namespace = 'http://upstream.test', commandTimeoutMs = 500) {
  const { logger, records } = createCapturingLogger('info');
  const registry = new Registry();
  const created = createRedisStore({ url: redis.url, namespace, logger, commandTimeoutMs, registry });
  stores.push(created);
  /** The commands counted so far, as `command:outcome` → how many, read from the exported metric. */
  const commands = async () => {
    const { values } = await registry.getSingleMetric('catalogue_shared_cache_commands_total')!.get();
    return Object.fromEntries(values.map(({ labels, value }) => [`${labels.command}:${labels.outcome}`, value]));
  };
  const up = async () => (await registry.getSingleMetric('catalogue_shared_cache_up')!.get()).values[0]?.value;
  return { store: created, logs: records, commands, up };
}

describe.skipIf(redisMissing)('createRedisStore', () => {
  it('keeps a value with its fill time, separately per namespace, for as long as it is asked to', async () => {
    const { store: a, commands } = store('http://one.test');
    const { store: b } = store('http://two.test');
    const json = Buffer.from(JSON.stringify([{ id: 1, title: 'Ünïcode & "quotes" <b>\n' }]));
    await a.write('list', { json, storedAt: 1_700_000_000_123 }, 60_000);

    expect(await a.read('list')).toEqual({ json, storedAt: 1_700_000_000_123 });
    expect(await b.read('list')).toBeUndefined();
    expect(await commands()).toEqual({ 'write:ok': 1, 'read:hit': 1 });
    const [key] = await admin.keys('*:copy:list');
    expect(await admin.pttl(key!)).toBeGreaterThan(59_000);

    await a.remove('list');
    expect(await a.read('list')).toBeUndefined();
  });

  it('treats what it did not write as absent', async () => {
    const { store: a } = store();
    await a.write('k', { json: Buffer.from('1'), storedAt: 1 }, 60_000);
    const [key] = await admin.keys('*:copy:k');
    for (const junk of ['no fill time', '{"storedAt":1,"value":1}', 'yesterday\n1', '\n1', '-1\n1', '1.5\n1']) {
      await admin.set(key!, junk);
      expect(await a.read('k')).toBeUndefined();
    }
  });

  it('lets one replica claim a fill, and only that replica release it', async () => {
    const { store: a } = store();
    const { store: b } = store();
    expect(await a.claimFill('list', 10_000)).toBe('claimed');
    expect(await b.claimFill('list', 10_000)).toBe('taken');
    expect(await a.claimFill('list', 10_000)).toBe('taken');

    await b.releaseFill('list');
    expect(await b.claimFill('list', 10_000)).toBe('taken');
    await a.releaseFill('list');
    expect(await b.claimFill('list', 10_000)).toBe('claimed');
    const [key] = await admin.keys('*:fill:list');
    expect(await admin.pttl(key!)).toBeGreaterThan(9_000);
  });

  it('answers "nothing" within its time limit while Redis is paused, counts it, logs it once, and recovers', async () => {
    const { store: a, logs, commands, up } = store('http://upstream.test', 100);
    await a.write('k', { json: Buffer.from('v'), storedAt: 1 }, 60_000);
    expect(a.available).toBe(true);

    await admin.call('CLIENT', 'PAUSE', '1000', 'ALL');
    expect(await a.read('k')).toBeUndefined();
    expect(await a.claimFill('k', 1_000)).toBe('unavailable');
    await a.write('k', { json: Buffer.from('w'), storedAt: 2 }, 60_000);
    expect(a.available).toBe(false);
    expect(await up()).toBe(0);
    expect(await commands()).toEqual({ 'write:ok': 1, 'read:error': 1, 'claim:error': 1, 'write:error': 1 });
    expect(logs.filter((record) => /unavailable/.test(record.msg))).toHaveLength(1);

    await admin.call('CLIENT', 'UNPAUSE');
    // The write that timed out on our side may still have run once Redis resumed: either copy is a valid one.
    expect([1, 2]).toContain((await a.read('k'))?.storedAt);
    expect(a.available).toBe(true);
    expect(await up()).toBe(1);
    expect(logs.some((record) => /answering again/.test(record.msg))).toBe(true);
  });

  it('drops writes when Redis is full, and still reads', async () => {
    const { store: a, commands } = store();
    await a.write('k', { json: Buffer.from('v'), storedAt: 1 }, 60_000);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1');

    await a.write('other', { json: Buffer.from('x'.repeat(10_000)), storedAt: 2 }, 60_000);
    expect(await commands()).toHaveProperty('write:error', 1);
    expect(await a.read('k')).toEqual({ json: Buffer.from('v'), storedAt: 1 });
  });

  it('fails at once, without queueing, once Redis is known to be down', async () => {
    const { store: a, commands, up } = store();
    await a.write('k', { json: Buffer.from('v'), storedAt: 1 }, 60_000);
    await redis.kill();
    // The first command after the loss finds out; the ones after it do not wait for anything.
    await a.read('k');
    for (let i = 0; i < 5; i += 1) expect(await a.read('k')).toBeUndefined();
    expect(await a.claimFill('k', 1_000)).toBe('unavailable');
    expect(a.available).toBe(false);
    expect(await up()).toBe(0);
    expect((await commands())['read:error']).toBeGreaterThanOrEqual(5);
  });
});
