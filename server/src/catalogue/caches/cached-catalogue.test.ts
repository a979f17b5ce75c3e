import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { arrivals } from '@catalogue/testing/arrivals';
import { rawGet } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from '../../testing/test-site.js';
import type { StubMode } from '@catalogue/testing/upstream-double';

// Small numbers keep the arithmetic readable: fresh for 60 s, then servable for 600 s more.
const TTL = 60;
const STALE_MAX = 600;

let site: TestSite;

afterEach(async () => {
  await site.close();
});

async function start(env: Record<string, string> = {}) {
  site = await startTestSite({ config: { CACHE_TTL_SECONDS: String(TTL), STALE_MAX_SECONDS: String(STALE_MAX), ...env } });
  return site;
}

/** The first chunk each response wrote, in order: the Buffer objects the server handed to the socket. */
function recordSentBodies(server: Server): unknown[] {
  const sent: unknown[] = [];
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      sent.push(args[0]);
      return end(...args);
    }) as ServerResponse['end'];
  });
  return sent;
}

const renamed = FIXTURE_PRODUCTS.map((product) => ({ ...product, title: `${product.title} (new)` }));

describe.each([
  ['the list', '/api/products', '/products'],
  ['one product', '/api/products/4', '/products/4'],
])('caching %s', (_name, apiPath, upstreamPath) => {
  it('answers a second request from the cache without asking the upstream', async () => {
    const { server, upstream } = await start();
    const first = await request(server).get(apiPath).expect(200);
    const second = await request(server).get(apiPath).expect(200);

    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual(first.body);
    expect(upstream.requestCount(upstreamPath)).toBe(1);
  });

  it('describes its freshness in Cache-Control and Age', async () => {
    const { server, clock } = await start();
    const miss = await request(server).get(apiPath).expect(200);
    expect(miss.headers['cache-control']).toBe(`public, max-age=${TTL}, stale-while-revalidate=${TTL}, stale-if-error=${STALE_MAX}`);
    expect(miss.headers.age).toBe('0');
    expect(miss.headers.vary).toBe('Accept-Encoding');

    clock.advanceSeconds(45);
    const hit = await request(server).get(apiPath).expect(200);
    expect(hit.headers['cache-control']).toMatch(/^public, max-age=15, /);
    expect(hit.headers.age).toBe('45');
  });

  it('serves the cached copy at once past its freshness, while exactly one background refresh runs', async () => {
    const { server, upstream, clock, catalogue } = await start();
    await request(server).get(apiPath).expect(200);
    upstream.setProducts(renamed);
    // The refresh hangs for UPSTREAM_TIMEOUT_MS (5 s, the test's own limit): answers that waited for it would
    // not arrive in time.
    await upstream.setMode('hang');
    clock.advanceSeconds(TTL + 1);

    const stale = await Promise.all([1, 2, 3, 4, 5].map(() => request(server).get(apiPath).expect(200)));

    for (const response of stale) {
      expect(response.headers['x-cache']).toBe('STALE');
      expect(response.headers['cache-control']).toMatch(/^public, max-age=0, /);
      expect(response.headers.age).toBe(String(TTL + 1));
      expect(JSON.stringify(response.body)).not.toContain('(new)');
    }
    await upstream.waitForRequests(upstreamPath, 2);
    upstream.dropHangingRequests();
    await catalogue.settled();
    expect(upstream.requestCount(upstreamPath)).toBe(2);
  });

  it('replaces the copy with the background refresh once it lands', async () => {
    const { server, upstream, clock, catalogue } = await start();
    await request(server).get(apiPath).expect(200);
    upstream.setProducts(renamed);
    clock.advanceSeconds(TTL + 1);

    await request(server).get(apiPath).expect(200).expect('X-Cache', 'STALE');
    await catalogue.settled();
    const refreshed = await request(server).get(apiPath).expect(200);

    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(refreshed.headers.age).toBe('0');
    expect(JSON.stringify(refreshed.body)).toContain('(new)');
    // The fill, then the refresh (for the list, a conditional request whose 200 is the download).
    expect(upstream.requestCount(upstreamPath)).toBe(2);
  });

  it('keeps serving the copy while the upstream fails, and logs the failed refresh', async () => {
    const { server, upstream, clock, catalogue, logs } = await start();
    const original = await request(server).get(apiPath).expect(200);
    await upstream.setMode('status500');
    clock.advanceSeconds(TTL + STALE_MAX - 1);

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await request(server).get(apiPath).expect(200);
      expect(response.headers['x-cache']).toBe('STALE');
      expect(response.body).toEqual(original.body);
      await catalogue.settled();
    }
    // Failures are not cached: each stale answer tried the upstream again.
    expect(upstream.requestCount(upstreamPath)).toBe(3);
    expect(logs.filter((record) => record.msg === 'Background refresh failed; the cached copy is still served')).toHaveLength(2);
  });

  it.each<StubMode>(['refuse', 'reset', 'status500', 'hang', 'html'])(
    'answers at once from the copy, with STALE, Age and Cache-Control, once the upstream turns to %s',
    async (mode) => {
      const { server, upstream, clock, catalogue } = await start();
      const original = await request(server).get(apiPath).expect(200);
      await upstream.setMode(mode);
      clock.advanceSeconds(TTL + 100);

      // Twice: the first answer starts a refresh that fails (or hangs); the second is served all the same.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await request(server).get(apiPath).expect(200);
        expect(response.headers['x-cache']).toBe('STALE');
        expect(response.headers.age).toBe(String(TTL + 100));
        expect(response.headers['cache-control']).toBe(`public, max-age=0, stale-while-revalidate=${TTL}, stale-if-error=${STALE_MAX}`);
        expect(response.headers.etag).toBe(original.headers.etag);
        expect(response.body).toEqual(original.body);
      }
      if (mode === 'hang') {
        // One refresh at a time: the second answer did not start another while the first still hangs.
        await upstream.waitForRequests(upstreamPath, 2);
        expect(upstream.requestCount(upstreamPath)).toBe(2);
        upstream.dropHangingRequests();
      }
      await catalogue.settled();
    },
  );

  it('hands every answer of one fill the very same prepared bytes: no serialising or compressing per request', async () => {
    const { server, upstream } = await start();
    const sent = recordSentBodies(server);
    for (const encoding of ['identity', 'gzip', 'br']) {
      for (let count = 0; count < 3; count += 1) await rawGet(server, apiPath, { 'Accept-Encoding': encoding });
    }
    expect(sent).toHaveLength(9);
    for (const encoding of [0, 1, 2]) {
      const [miss, ...hits] = sent.slice(encoding * 3, encoding * 3 + 3);
      // The same Buffer object, not merely equal bytes: nothing was built for these requests.
      for (const hit of hits) expect(hit).toBe(miss);
    }
    expect(new Set(sent).size).toBe(3);
    expect(upstream.requestCount(upstreamPath)).toBe(1);
  });

  it('lets the error through once the copy is older than its freshness plus STALE_MAX_SECONDS', async () => {
    const { server, upstream, clock } = await start();
    await request(server).get(apiPath).expect(200);
    await upstream.setMode('refuse');
    clock.advanceSeconds(TTL + STALE_MAX);

    const response = await request(server).get(apiPath).expect(502);
    expect(response.body).toEqual({
      error: apiPath === '/api/products' ? MESSAGES.catalogueUnavailable : MESSAGES.productNotFound,
    });
  });

  it('does not cache failures: the next request asks the upstream again', async () => {
    const { server, upstream } = await start();
    upstream.override(upstreamPath, 'status500');
    await request(server).get(apiPath).expect(502);
    upstream.clearOverrides();
    await request(server).get(apiPath).expect(200).expect('X-Cache', 'MISS');
    expect(upstream.requestCount(upstreamPath)).toBe(2);
  });

  it('shares one upstream request among 100 concurrent misses', async () => {
    const { server, upstream } = await start();
    await upstream.setMode('hang');
    const allIn = arrivals(server, 100);
    const pending = Array.from({ length: 100 }, () =>
      request(server)
        .get(apiPath)
        .then((response) => response),
    );
    await allIn;
    await upstream.waitForRequests(upstreamPath, 1);
    await upstream.setMode('normal');
    upstream.releaseHangingRequests();
    const responses = await Promise.all(pending);

    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(200));
    // Every one of them waited for the same fill: none came late enough to be a HIT.
    expect(responses.map((response) => response.headers['x-cache'])).toEqual(Array(100).fill('MISS'));
    expect(new Set(responses.map((response) => JSON.stringify(response.body))).size).toBe(1);
    expect(upstream.requestCount(upstreamPath)).toBe(1);
  });

  it('bounds every waiter by UPSTREAM_TIMEOUT_MS: 100 misses behind a hanging upstream all get 504', async () => {
    // Long enough for all 100 to join the one request on a busy machine; if one did not, it would start a
    // second request and the count below would fail, never pass wrongly.
    const { server, upstream } = await start({ UPSTREAM_TIMEOUT_MS: '1500' });
    await upstream.setMode('hang');
    const responses = await Promise.all(Array.from({ length: 100 }, () => request(server).get(apiPath)));

    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(504));
    const message = apiPath === '/api/products' ? MESSAGES.catalogueTimeout : MESSAGES.productNotFound;
    expect(responses.every((response) => (response.body as { error: string }).error === message)).toBe(true);
    expect(upstream.requestCount(upstreamPath)).toBe(1);
  });

  it('answers 304 without a body to a matching If-None-Match, for any encoding of the same content', async () => {
    const { server } = await start();
    const identity = await rawGet(server, apiPath);
    const gzip = await rawGet(server, apiPath, { 'Accept-Encoding': 'gzip' });
    const identityTag = identity.headers.etag as string;
    const gzipTag = gzip.headers.etag as string;
    expect(identityTag).toMatch(/^"[\w-]+"$/);
    expect(gzipTag).not.toBe(identityTag);

    for (const tag of [identityTag, gzipTag, `W/${identityTag}`, `"other", ${identityTag}`, '*']) {
      const response = await rawGet(server, apiPath, { 'If-None-Match': tag, 'Accept-Encoding': 'br' });
      expect(response.status).toBe(304);
      expect(response.body.length).toBe(0);
      expect(response.headers['x-cache']).toBe('HIT');
    }
    const changed = await rawGet(server, apiPath, { 'If-None-Match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('sends brotli and gzip bodies that decode to the identity JSON', async () => {
    const { server } = await start();
    const identity = await rawGet(server, apiPath, { 'Accept-Encoding': 'identity' });
    const br = await rawGet(server, apiPath, { 'Accept-Encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(server, apiPath, { 'Accept-Encoding': 'gzip, br;q=0' });
    const refused = await rawGet(server, apiPath, { 'Accept-Encoding': 'gzip;q=0' });

    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(refused.body.equals(identity.body)).toBe(true);
    for (const response of [identity, br, gzip]) {
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
    }
    expect(br.body.length).toBeLessThan(identity.body.length);
  });
});

describe('caching single products', () => {
  it('keeps the list and each product under separate keys', async () => {
    const { server, upstream } = await start();
    await request(server).get('/api/products').expect(200);
    await request(server).get('/api/products/1').expect(200).expect('X-Cache', 'MISS');
    await request(server).get('/api/products/2').expect(200).expect('X-Cache', 'MISS');
    await request(server).get('/api/products/1').expect(200).expect('X-Cache', 'HIT');
    expect(upstream.requestCount('/products/1')).toBe(1);
    expect(upstream.requestCount('/products/2')).toBe(1);
  });

  it('does not cache "no such product": each request asks the upstream', async () => {
    const { server, upstream } = await start();
    await request(server).get('/api/products/999').expect(404);
    await request(server).get('/api/products/999').expect(404);
    expect(upstream.requestCount('/products/999')).toBe(2);
  });

  it('drops a cached product once the upstream says it is gone', async () => {
    const { server, upstream, clock, catalogue } = await start();
    await request(server).get('/api/products/3').expect(200);
    upstream.setProducts(FIXTURE_PRODUCTS.filter((product) => product.id !== 3));
    clock.advanceSeconds(TTL + 1);

    await request(server).get('/api/products/3').expect(200).expect('X-Cache', 'STALE');
    await catalogue.settled();
    await request(server).get('/api/products/3').expect(404, { error: MESSAGES.productNotFound });
  });

  it('fetches the image from the location the cached product holds', async () => {
    const { server, upstream } = await start();
    await request(server).get('/api/products/6').expect(200);
    await request(server).get('/api/products/6/image').expect(200).expect('Content-Type', 'image/png');
    expect(upstream.requestCount('/products/6')).toBe(1);
    expect(upstream.requestCount('/images/6.png')).toBe(1);
  });

  it('keeps image bytes: 50 concurrent and later requests for one image make one upstream call', async () => {
    const { server, upstream } = await start();
    upstream.override('/images/6.png', 'hang');
    const allIn = arrivals(server, 50);
    const pending = Array.from({ length: 50 }, () =>
      request(server)
        .get('/api/products/6/image')
        .then((response) => response),
    );
    await allIn;
    await upstream.waitForRequests('/images/6.png', 1);
    upstream.releaseHangingRequests();
    const responses = await Promise.all(pending);
    upstream.clearOverrides();
    await request(server).get('/api/products/6/image').expect(200);

    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(upstream.requestCount('/images/6.png')).toBe(1);
    expect(upstream.requestCount('/products/6')).toBe(1);
  });

  it('does not keep a failed image fetch', async () => {
    const { server, upstream } = await start();
    upstream.override('/images/6.png', 'status500');
    await request(server).get('/api/products/6/image').expect(502);
    upstream.clearOverrides();
    await request(server).get('/api/products/6/image').expect(200);
    expect(upstream.requestCount('/images/6.png')).toBe(2);
  });

  it('rewrites every image to this server in the list and in the detail', async () => {
    const { server } = await start();
    const list = (await request(server).get('/api/products').expect(200)).body as Product[];
    const detail = (await request(server).get('/api/products/12').expect(200)).body as Product;
    expect(list.map((product) => product.image)).toEqual(FIXTURE_PRODUCTS.map((product) => `/api/products/${product.id}/image`));
    expect(detail.image).toBe('/api/products/12/image');
  });
});
