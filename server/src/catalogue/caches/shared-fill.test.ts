// Several replicas sharing one real Redis (Debian's redis-server, started on a free port), each built by buildServer
// as production builds it, in front of one upstream double that counts what it is asked.
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedisServer } from '@catalogue/testing/redis-server';
import { startTestSite, type TestSite } from '../../testing/test-site.js';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const TTL = 60;
const STALE_MAX = 600;

// Without redis-server these tests cannot mean anything: skipped with the install command, except in CI, where a
// missing redis-server is a failure (startRedisServer throws, naming the command).
const redisMissing = findRedisServer() === undefined && !process.env.CI;
if (redisMissing) console.warn(`Skipping the shared cache tests: redis-server is not installed (${REDIS_INSTALL_HINT})`);

let redis: RedisServer;
let upstream: UpstreamStub;
let sites: TestSite[] = [];

beforeEach(async () => {
  if (redisMissing) return;
  redis = await startRedisServer();
  upstream = await startUpstreamStub();
});

afterEach(async () => {
  if (redisMissing) return;
  upstream.clearOverrides();
  upstream.releaseHangingRequests();
  await Promise.all(sites.map((site) => site.close()));
  sites = [];
  await upstream.close();
  await redis.stop();
});

/** One more replica: same upstream, same Redis, its own memory, clock and metrics. */
async function replica(config: Record<string, string> = {}): Promise<TestSite> {
  const site = await startTestSite({
    config: {
      PRODUCTS_API_URL: upstream.url,
      REDIS_URL: redis.url,
      CACHE_TTL_SECONDS: String(TTL),
      STALE_MAX_SECONDS: String(STALE_MAX),
      UPSTREAM_TIMEOUT_MS: '2000',
      ...config,
    },
  });
  sites.push(site);
  return site;
}

async function get(site: TestSite, path: string) {
  const response = await fetch(new URL(path, site.url), { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function metric(site: TestSite, line: RegExp): Promise<number> {
  const text = await site.metrics.registry.metrics();
  const match = text.split('\n').find((entry) => line.test(entry));
  return match === undefined ? 0 : Number(match.slice(match.lastIndexOf(' ') + 1));
}

/** Resolves once `check` holds; bounded, for states another process reaches in its own time. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(redisMissing)('replicas sharing a Redis', () => {
  it('serve a fill made by one replica from the other without asking the upstream', async () => {
    const [a, b] = [await replica(), await replica()];
    const first = await get(a, '/api/products');
    const second = await get(b, '/api/products');
    const product = await get(b, '/api/products/2');
    const productAgain = await get(a, '/api/products/2');

    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.text).toBe(first.text);
    expect(productAgain.headers.get('x-cache')).toBe('HIT');
    expect(productAgain.text).toBe(product.text);
    expect(upstream.requestCount('/products')).toBe(1);
    expect(upstream.requestCount('/products/2')).toBe(1);
    expect(await metric(b, /^catalogue_shared_cache_commands_total\{command="read",outcome="hit"\}/)).toBeGreaterThanOrEqual(1);
  });

  it('coalesce a cold fill across replicas: one upstream request, every replica answers with it', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    upstream.override('/products', 'hang');
    const answers = Promise.all([a, b, c, a, b, c].map((site) => get(site, '/api/products')));
    await upstream.waitForRequests('/products', 1);
    // The two replicas without the claim wait for the copy instead of asking the upstream.
    const waiting = async (site: TestSite) =>
      (await metric(site, /^catalogue_shared_cache_commands_total\{command="claim",outcome="taken"\}/)) > 0;
    await eventually(async () => (await Promise.all([a, b, c].map(waiting))).filter(Boolean).length === 2, 'two replicas waiting');
    upstream.clearOverrides();
    upstream.releaseHangingRequests();

    const settled = await answers;
    expect(settled.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(settled.map((answer) => answer.text)).size).toBe(1);
    expect(upstream.requestCount('/products')).toBe(1);
  });

  it('keep answering when Redis is killed mid-run, and say so in /readyz and /metrics', async () => {
    const a = await replica();
    expect((await get(a, '/api/products')).status).toBe(200);
    expect(JSON.parse((await get(a, '/readyz')).text)).toEqual({ status: 'ready', sharedCache: 'up' });

    await redis.kill();
    const b = await replica();
    // A replica started without Redis fills from the upstream; the one that had filled keeps its memory.
    const fromUpstream = await get(b, '/api/products');
    const fromMemory = await get(a, '/api/products');
    expect(fromUpstream.status).toBe(200);
    expect(fromUpstream.headers.get('x-cache')).toBe('MISS');
    expect(fromMemory.headers.get('x-cache')).toBe('HIT');
    expect(upstream.requestCount('/products')).toBe(2);
    // Past freshness, the refresh goes to the upstream as without Redis, and a product nobody cached too.
    a.clock.advanceSeconds(TTL + 1);
    expect((await get(a, '/api/products')).headers.get('x-cache')).toBe('STALE');
    await a.catalogue.settled();
    expect((await get(a, '/api/products')).headers.get('x-cache')).toBe('HIT');
    expect((await get(a, '/api/products/3')).status).toBe(200);

    const ready = await get(b, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', sharedCache: 'down' });
    expect(await metric(b, /^catalogue_shared_cache_up /)).toBe(0);
    expect(await metric(b, /^catalogue_shared_cache_commands_total\{command="read",outcome="error"\}/)).toBeGreaterThanOrEqual(1);
    expect(b.logs.some((record) => /Shared cache \(Redis\) unavailable/.test(record.msg))).toBe(true);
  });

  it('keep answering when Redis is paused (every command times out) or full (every write refused)', async () => {
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    try {
      const a = await replica();
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      const whileFull = await get(a, '/api/products');
      expect(whileFull.status).toBe(200);
      // The claim is the first write Redis refuses; the replica then fills from the upstream alone.
      expect(await metric(a, /^catalogue_shared_cache_commands_total\{command="claim",outcome="error"\}/)).toBe(1);

      const b = await replica();
      await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
      const whilePaused = await get(b, '/api/products/1');
      expect(whilePaused.status).toBe(200);
      expect(whilePaused.headers.get('x-cache')).toBe('MISS');
      // One command's time limit, not one per command: after the failed read, no claim and no write are tried.
      expect(await metric(b, /^catalogue_shared_cache_commands_total\{command="read",outcome="error"\}/)).toBe(1);
      expect(await metric(b, /^catalogue_shared_cache_commands_total\{command="(claim|write)"/)).toBe(0);
      expect(JSON.parse((await get(b, '/readyz')).text)).toMatchObject({ status: 'ready', sharedCache: 'down' });
    } finally {
      await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
      admin.disconnect();
    }
  });

  it('count freshness and staleness from the fill time on every replica, and serve a stored copy through an upstream outage', async () => {
    const a = await replica();
    await get(a, '/api/products');
    await upstream.setMode('refuse');

    // A replica that starts during the outage, TTL + 1 s after the fill: the copy is stale, not fresh, and served.
    const b = await replica();
    b.clock.advanceSeconds(TTL + 1);
    const stale = await get(b, '/api/products');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-cache')).toBe('STALE');
    expect(Number(stale.headers.get('age'))).toBe(TTL + 1);
    await b.catalogue.settled();

    // Another, within freshness: a HIT with the copy's real age.
    const c = await replica();
    c.clock.advanceSeconds(10);
    const fresh = await get(c, '/api/products');
    expect(fresh.headers.get('x-cache')).toBe('HIT');
    expect(Number(fresh.headers.get('age'))).toBe(10);

    // Past TTL + STALE_MAX the copy is not usable on any replica, however long Redis would keep it.
    const d = await replica();
    d.clock.advanceSeconds(TTL + STALE_MAX + 1);
    const expired = await get(d, '/api/products');
    expect(expired.status).toBe(502);
  });

  it('share one refresh of a stale copy: a replica that finds a fresher copy in Redis does not ask the upstream', async () => {
    const [a, b] = [await replica(), await replica()];
    await get(a, '/api/products');
    await get(b, '/api/products');
    expect(upstream.requestCount('/products')).toBe(1);

    a.clock.advanceSeconds(TTL + 1);
    b.clock.advanceSeconds(TTL + 1);
    expect((await get(a, '/api/products')).headers.get('x-cache')).toBe('STALE');
    await a.catalogue.settled();
    expect(upstream.requestCount('/products')).toBe(2);

    expect((await get(b, '/api/products')).headers.get('x-cache')).toBe('STALE');
    await b.catalogue.settled();
    expect((await get(b, '/api/products')).headers.get('x-cache')).toBe('HIT');
    expect(upstream.requestCount('/products')).toBe(2);
  });

  it('leave Redis alone when caching is off: every request asks the upstream, none waits for another replica', async () => {
    const off = { CACHE_TTL_SECONDS: '0', STALE_MAX_SECONDS: '0' };
    const [a, b] = [await replica(off), await replica(off)];
    const answers = [await get(a, '/api/products'), await get(b, '/api/products'), await get(a, '/api/products')];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(upstream.requestCount('/products')).toBe(3);
    for (const site of [a, b]) expect(await metric(site, /^catalogue_shared_cache_commands_total\{command="claim"/)).toBe(0);
  });

  it('forget a product on every replica once the upstream says it does not exist', async () => {
    const [a, b] = [await replica(), await replica()];
    expect((await get(a, '/api/products/5')).status).toBe(200);
    a.clock.advanceSeconds(TTL + 1);
    b.clock.advanceSeconds(TTL + 1);
    upstream.override('/products/5', 'notFound');
    expect((await get(a, '/api/products/5')).status).toBe(200);
    await a.catalogue.settled();
    expect((await get(a, '/api/products/5')).status).toBe(404);
    expect((await get(b, '/api/products/5')).status).toBe(404);
  });
});
