import { MESSAGES } from '@catalogue/shared/messages';
import { productPhoto } from '@catalogue/testing/photos';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { TINY_PNG } from '@catalogue/testing/fake-store-routes';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';

const CHROMIUM_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const TTL_SECONDS = 60;
const STALE_MAX_SECONDS = 600;

let site: TestSite;
const extraStubs: UpstreamStub[] = [];

afterEach(async () => {
  await site.close();
  await Promise.all(extraStubs.splice(0).map((upstream) => upstream.close()));
});

/** The real server in front of the fixture upstream, whose images are all TINY_PNG. */
async function startPlain() {
  site = await startTestSite();
  return site;
}

/** The real server in front of the photo upstream, with a short TTL and stale maximum on the test clock. */
async function start() {
  site = await startTestSite({
    upstream: { photos: true },
    config: { CACHE_TTL_SECONDS: String(TTL_SECONDS), STALE_MAX_SECONDS: String(STALE_MAX_SECONDS) },
  });
}

async function get(path: string, headers: Record<string, string> = { accept: CHROMIUM_ACCEPT }) {
  const response = await fetch(`${site.url}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  const header = (name: string) => response.headers.get(name);
  return { status: response.status, header, body };
}

/** `image_variant_encodes_total` summed over formats, as /metrics shows it. */
async function encodes(): Promise<number> {
  const text = await (await fetch(`${site.url}/metrics`)).text();
  return [...text.matchAll(/^image_variant_encodes_total\{[^}]*\} (\d+)$/gm)].reduce((sum, [, count]) => sum + Number(count), 0);
}

describe('the original photo (no ?w)', () => {
  it('is answered by the same rule as every cached answer: a strong ETag, X-Cache, Age, and 304 on a match', async () => {
    await start();
    const cold = await get('/api/products/1/image');
    expect(cold.status).toBe(200);
    expect(cold.body.equals(await productPhoto(1))).toBe(true);
    expect(cold.header('etag')).toMatch(/^"[\w-]{27}"$/);
    expect([cold.header('x-cache'), cold.header('age'), cold.header('cache-control')]).toEqual(['MISS', '0', 'public, max-age=86400']);
    expect(cold.header('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");

    site.clock.advanceSeconds(7);
    const warm = await get('/api/products/1/image');
    expect([warm.header('x-cache'), warm.header('age'), warm.header('etag')]).toEqual(['HIT', '7', cold.header('etag')]);
    const revalidated = await get('/api/products/1/image', { 'if-none-match': cold.header('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(site.upstream.requestCount('/photos/1.jpg')).toBe(1);
  });
});

describe('photos through an upstream outage', () => {
  it('serves a warmed variant and original STALE past the TTL while the upstream fails, up to STALE_MAX_SECONDS', async () => {
    await start();
    const variant = await get('/api/products/2/image?w=320');
    const original = await get('/api/products/2/image');
    await site.upstream.setMode('status500');
    site.clock.advanceSeconds(TTL_SECONDS + 1);

    for (const [path, warmed] of [
      ['/api/products/2/image?w=320', variant],
      ['/api/products/2/image', original],
    ] as const) {
      const stale = await get(path);
      expect(stale.status).toBe(200);
      expect([stale.header('x-cache'), stale.header('age'), stale.header('etag')]).toEqual(['STALE', '61', warmed.header('etag')]);
      expect(stale.body.equals(warmed.body)).toBe(true);
    }
    await vi.waitFor(() => expect(site.logs.some((record) => record.msg.includes('the cached copy is still served'))).toBe(true));

    // Still served as the outage goes on, for as long as the JSON would be…
    site.clock.advanceSeconds(STALE_MAX_SECONDS - 2);
    expect((await get('/api/products/2/image?w=320')).header('x-cache')).toBe('STALE');
    // …and past that, the failure shows: nothing that old is served.
    site.clock.advanceSeconds(2);
    const failed = await get('/api/products/2/image?w=320');
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.body.toString())).toEqual({ error: MESSAGES.catalogueUnavailable });
  });
});

describe('photo revalidation', () => {
  it('re-encodes nothing across ten TTLs of an unchanged photo: one conditional request per TTL, answered 304', async () => {
    await start();
    const paths = ['/api/products/3/image?w=320', '/api/products/3/image?w=640'];
    const accepts = [CHROMIUM_ACCEPT, 'image/webp,*/*', '*/*'];
    for (const path of paths) for (const accept of accepts) expect((await get(path, { accept })).status).toBe(200);
    expect(await encodes()).toBe(6);

    for (let ttl = 1; ttl <= 10; ttl += 1) {
      site.clock.advanceSeconds(TTL_SECONDS);
      expect((await get(paths[0]!)).header('x-cache')).toBe('STALE');
      // The background revalidation lands: the variants are fresh again, served from the response cache.
      await vi.waitFor(async () => expect((await get(paths[0]!)).header('x-cache')).toBe('HIT'));
      for (const path of paths) for (const accept of accepts) expect((await get(path, { accept })).header('x-cache')).toBe('HIT');
      expect(site.upstream.notModifiedCount('/photos/3.jpg')).toBe(ttl);
    }
    expect(await encodes()).toBe(6);
    expect(site.upstream.requestCount('/photos/3.jpg')).toBe(11);
  });

  it('makes a variant again once the upstream’s photo changed', async () => {
    await start();
    const before = await get('/api/products/4/image?w=480');
    site.upstream.override('/photos/4.jpg', { status: 200, contentType: 'image/jpeg', body: await productPhoto(9) });
    site.clock.advanceSeconds(TTL_SECONDS);
    expect((await get('/api/products/4/image?w=480')).header('etag')).toBe(before.header('etag'));
    await vi.waitFor(async () => expect((await get('/api/products/4/image?w=480')).header('etag')).not.toBe(before.header('etag')));
    expect(await encodes()).toBe(2);
    const original = await get('/api/products/4/image');
    expect(original.body.equals(await productPhoto(9))).toBe(true);
  });
});

describe('GET /api/products/:id/image', () => {
  it('answers 400 for an invalid id on the image route too, without asking the upstream', async () => {
    const { server, upstream } = await startPlain();
    await request(server).get('/api/products/abc/image').expect(400, { error: MESSAGES.invalidProductId });
    expect(upstream.requestCount()).toBe(0);
  });

  it('passes the bytes and content type of the image the upstream named for that product', async () => {
    const { server, upstream } = await startPlain();
    const response = await request(server).get('/api/products/2/image').expect(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(response.body as Buffer, TINY_PNG)).toBe(0);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(response.headers['cache-control'] as string)?.[1])).toBeGreaterThanOrEqual(86400);
    expect(upstream.requestCount('/images/2.png')).toBe(1);
  });

  it('never fetches a URL the client supplies', async () => {
    const elsewhere = await startUpstreamStub();
    extraStubs.push(elsewhere);
    const { server, upstream } = await startPlain();
    await request(server)
      .get(`/api/products/2/image?url=${encodeURIComponent(`${elsewhere.url}/images/1.png`)}`)
      .expect(200);
    await request(server)
      .get(`/api/products/${encodeURIComponent(`${elsewhere.url}/images/1.png`)}/image`)
      .expect(400);
    await request(server).get('/api/products/2/image').set('Referer', elsewhere.url).expect(200);
    expect(elsewhere.requestCount()).toBe(0);
    expect(upstream.requestCount('/images/2.png')).toBe(1);
  });

  it('answers 404 JSON for a product the upstream does not have', async () => {
    const { server, upstream } = await startPlain();
    await request(server).get('/api/products/999/image').expect(404, { error: MESSAGES.productNotFound });
    expect(upstream.requestCount('/images/999.png')).toBe(0);
  });

  it('answers 502 when the image fetch fails', async () => {
    const { server, upstream } = await startPlain();
    upstream.override('/images/3.png', 'status500');
    await request(server).get('/api/products/3/image').expect(502, { error: MESSAGES.catalogueUnavailable });
  });

  it('answers 502 rather than pass through something that is not an image', async () => {
    const { server, upstream } = await startPlain();
    upstream.override('/images/3.png', 'html');
    await request(server).get('/api/products/3/image').expect(502);
  });
});
