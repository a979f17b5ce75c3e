// Three replicas, each built by buildServer as production builds it, sharing one real Redis (Debian's redis-server on
// a free port) for their rate limit, and one client asking each in turn.
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedisServer } from '@catalogue/testing/redis-server';
import { MESSAGES } from '@catalogue/shared/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';

const LIMIT = 60;

// Skipped with the install command where redis-server is missing, except in CI, where startRedisServer throws.
const redisMissing = findRedisServer() === undefined && !process.env.CI;
if (redisMissing) console.warn(`Skipping the shared rate limit tests: redis-server is not installed (${REDIS_INSTALL_HINT})`);

let redis: RedisServer;
let replicas: TestSite[] = [];

beforeEach(async () => {
  if (redisMissing) return;
  redis = await startRedisServer();
  replicas = [];
  for (let index = 0; index < 3; index += 1) {
    replicas.push(await startTestSite({ config: { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: String(LIMIT) } }));
  }
});

afterEach(async () => {
  if (redisMissing) return;
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis.stop();
});

interface Asked {
  replica: number;
  status: number;
  rateLimit: string | null;
  retryAfter: string | null;
  body: string;
}

/** `count` requests for the list, one at a time, to each replica in turn (the first of each is a miss, the rest cache hits). */
async function askInTurn(count: number, path = '/api/products'): Promise<Asked[]> {
  const asked: Asked[] = [];
  for (let index = 0; index < count; index += 1) {
    const replica = index % replicas.length;
    const response = await fetch(new URL(path, replicas[replica]!.url), { signal: AbortSignal.timeout(10_000) });
    asked.push({
      replica,
      status: response.status,
      rateLimit: response.headers.get('ratelimit'),
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    });
  }
  return asked;
}

const answered = (asked: readonly Asked[], replica?: number) =>
  asked.filter((one) => one.status === 200 && (replica === undefined || one.replica === replica)).length;

describe.skipIf(redisMissing)('the API rate limit across replicas sharing Redis', () => {
  it('holds one client to the limit for the whole site, on the cache hit path and through Express alike', async () => {
    const asked = await askInTurn(3 * LIMIT);

    // Within 5 % of the limit for the whole site (each replica counting alone would answer all 180).
    expect(answered(asked)).toBeGreaterThanOrEqual(LIMIT * 0.95);
    expect(answered(asked)).toBeLessThanOrEqual(LIMIT * 1.05);
    expect(asked.every((one) => one.status === 200 || one.status === 429)).toBe(true);
    // One count: the remaining budget goes down by one from replica to replica.
    expect(asked.slice(0, 4).map((one) => one.rateLimit?.replace(/; t=\d+$/, ''))).toEqual([
      `"${LIMIT}-in-1min"; r=59`,
      `"${LIMIT}-in-1min"; r=58`,
      `"${LIMIT}-in-1min"; r=57`,
      `"${LIMIT}-in-1min"; r=56`,
    ]);
    // Every 429 is the one a single replica sends: JSON message, Retry-After, RateLimit with nothing left.
    const refused = asked.filter((one) => one.status === 429);
    expect(refused.length).toBe(3 * LIMIT - answered(asked));
    for (const one of refused) {
      expect(JSON.parse(one.body)).toEqual({ error: MESSAGES.tooManyRequests });
      expect(Number(one.retryAfter)).toBeGreaterThan(0);
      expect(one.rateLimit).toMatch(new RegExp(`^"${LIMIT}-in-1min"; r=0; t=\\d+$`));
    }
    // Refused from the moment the site's budget was spent, on every replica.
    expect(asked.slice(answered(asked)).every((one) => one.status === 429)).toBe(true);
  });

  it('goes on answering with Redis stopped mid-way, each replica counting on its own, and says so in /metrics', async () => {
    const before = await askInTurn(30);
    expect(answered(before)).toBe(30);
    for (const replica of replicas) expect(await storeUp(replica)).toBe('1');

    await redis.kill();
    const after = await askInTurn(3 * (LIMIT + 10));

    // Nothing failed or hung (each request has a 10 s limit): every request answered 200 or a 429.
    expect(after.every((one) => one.status === 200 || one.status === 429)).toBe(true);
    // Each replica now holds the client to the limit in its own memory: 60 answers each, then 429s.
    for (const replica of [0, 1, 2]) expect(answered(after, replica)).toBe(LIMIT);
    for (const one of after.filter(({ status }) => status === 429))
      expect(JSON.parse(one.body)).toEqual({ error: MESSAGES.tooManyRequests });
    for (const replica of replicas) {
      expect(replica.logs.some((record) => record.msg.startsWith('Rate limit store (Redis) unavailable'))).toBe(true);
      expect(await storeUp(replica)).toBe('0');
    }
  });

  it('does not wait on a Redis that hangs: each request waits at most the limiter’s time limit, then counts here', async () => {
    const before = await askInTurn(30);
    expect(answered(before)).toBe(30);

    redis.pause();
    // Each request has 10 s (askInTurn): a limiter that waited on the frozen Redis would fail here.
    const after = await askInTurn(3 * (LIMIT + 10));
    redis.resume();

    expect(after.every((one) => one.status === 200 || one.status === 429)).toBe(true);
    for (const replica of [0, 1, 2]) expect(answered(after, replica)).toBe(LIMIT);
  });
});

/** What a replica's /metrics says of the rate limit store: `1` while Redis answers, `0` while it counts alone. */
async function storeUp(replica: TestSite): Promise<string | undefined> {
  const text = await (await fetch(new URL('/metrics', replica.url))).text();
  return /^http_rate_limit_store_up (\d+)$/m.exec(text)?.[1];
}
