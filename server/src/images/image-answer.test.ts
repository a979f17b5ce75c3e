import { readFile } from 'node:fs/promises';
import { MESSAGES } from '@catalogue/shared/messages';
import { decompressionBomb, productPhoto } from '@catalogue/testing/photos';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_CATALOGUE_DIR } from '../catalogue/sources/embedded-source.js';

/** What Chromium sends for an image. */
const CHROMIUM_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const KB = 1024;

let site: TestSite;
const others: UpstreamStub[] = [];

afterEach(async () => {
  await site.close();
  await Promise.all(others.splice(0).map((other) => other.close()));
});

/** The real server in front of the photo upstream: product 1's photo is 1,049 × 1,500, product 14's 370 × 333. */
async function start(options: Parameters<typeof startTestSite>[0] = {}) {
  site = await startTestSite({ ...options, upstream: { photos: true, ...options.upstream } });
  return site;
}

async function get(path: string, headers: Record<string, string> = { accept: CHROMIUM_ACCEPT }) {
  const response = await fetch(`${site.url}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

async function dimensions(body: Buffer) {
  const { format, width, height } = await sharp(body).metadata();
  return { format, width, height };
}

describe('GET /api/products/:id/image?w=', () => {
  it('answers a resized AVIF with Vary: Accept, its ETag and the long lifetime, then the same bytes from the cache', async () => {
    await start();
    const cold = await get('/api/products/1/image?w=320');
    expect(cold.status).toBe(200);
    expect(await dimensions(cold.body)).toEqual({ format: 'heif', width: 320, height: 458 });
    expect(cold.body.length).toBeLessThanOrEqual(30 * KB);
    expect(Object.fromEntries(['content-type', 'vary', 'cache-control', 'x-cache'].map((name) => [name, cold.headers.get(name)]))).toEqual({
      'content-type': 'image/avif',
      vary: 'Accept',
      'cache-control': 'public, max-age=86400',
      'x-cache': 'MISS',
    });
    expect(cold.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(cold.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(cold.headers.get('x-content-type-options')).toBe('nosniff');

    const warm = await get('/api/products/1/image?w=320');
    expect(warm.headers.get('x-cache')).toBe('HIT');
    expect(warm.headers.get('etag')).toBe(cold.headers.get('etag'));
    expect(warm.body.equals(cold.body)).toBe(true);
    expect(site.upstream.requestCount('/photos/1.jpg')).toBe(1);

    const revalidated = await get('/api/products/1/image?w=320', { accept: CHROMIUM_ACCEPT, 'if-none-match': cold.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it.each([
    ['image/webp,*/*', 'image/webp', 'webp'],
    ['image/*,*/*;q=0.8', 'image/jpeg', 'jpeg'],
    ['', 'image/jpeg', 'jpeg'],
  ])('answers Accept %j with %s, a variant of its own', async (accept, contentType, format) => {
    await start();
    const avif = await get('/api/products/1/image?w=480');
    const other = await get('/api/products/1/image?w=480', { accept });
    expect(other.headers.get('content-type')).toBe(contentType);
    expect(other.headers.get('x-cache')).toBe('MISS');
    expect(other.headers.get('etag')).not.toBe(avif.headers.get('etag'));
    expect(await dimensions(other.body)).toMatchObject({ format, width: 480 });
  });

  it('never upscales: a width past the photo’s own keeps its size', async () => {
    await start();
    expect(await dimensions((await get('/api/products/14/image?w=1280')).body)).toEqual({ format: 'heif', width: 370, height: 333 });
  });

  it('makes one variant for a burst of cold requests: one upstream fetch, one answer for all', async () => {
    await start();
    const answers = await Promise.all(Array.from({ length: 10 }, () => get('/api/products/5/image?w=640')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1);
    expect(site.upstream.requestCount('/photos/5.jpg')).toBe(1);
  });

  it('answers the original bytes without w, as before', async () => {
    await start();
    const original = await get('/api/products/1/image');
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(original.body.equals(await productPhoto(1))).toBe(true);
  });

  it.each(['w=', 'w=321', 'w=0320', 'w=abc', 'w=-320', 'w=320.5', 'w=1e3', 'w=320&w=320', 'w=320&w=640', 'w=99999999999999999999'])(
    'answers ?%s with 400 Invalid image width, asking the upstream nothing',
    async (query) => {
      await start();
      const response = await get(`/api/products/1/image?${query}`);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body.toString())).toEqual({ error: MESSAGES.invalidImageWidth });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(site.upstream.requestCount()).toBe(0);
    },
  );

  it('checks the product id first, and ignores other parameters', async () => {
    await start();
    expect((await get('/api/products/abc/image?w=321')).status).toBe(400);
    expect(JSON.parse((await get('/api/products/abc/image?w=321')).body.toString())).toEqual({ error: MESSAGES.invalidProductId });
    expect((await get('/api/products/999/image?w=320')).status).toBe(404);
    expect((await get('/api/products/2/image?w=320&utm_source=mail')).headers.get('content-type')).toBe('image/avif');
  });

  it.each([
    ['an HTML page', Buffer.from('<!DOCTYPE html><title>502</title>')],
    ['a truncated JPEG', Buffer.from('\xff\xd8\xff\xe0 cut here', 'latin1')],
    ['a decompression bomb (a small PNG declaring 100,000 × 100,000 pixels)', decompressionBomb(100_000, 100_000)],
  ])('answers 502 JSON for %s sent as an image, logs it, and keeps nothing', async (_label, body) => {
    await start();
    site.upstream.override('/photos/3.jpg', { status: 200, contentType: 'image/jpeg', body });
    for (const attempt of [1, 2]) {
      const response = await get('/api/products/3/image?w=320');
      expect(response.status).toBe(502);
      expect(JSON.parse(response.body.toString())).toEqual({ error: MESSAGES.catalogueUnavailable });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(site.upstream.requestCount('/photos/3.jpg')).toBe(attempt);
    }
    expect(site.logs.some((record) => JSON.stringify(record).includes('cannot be resized'))).toBe(true);
  });

  it('passes the embedded catalogue’s SVGs through unchanged', async () => {
    await start({ embeddedDirectory: EMBEDDED_CATALOGUE_DIR });
    const variant = await get('/api/products/1/image?w=320');
    expect(variant.headers.get('content-type')).toBe('image/svg+xml');
    expect(variant.headers.get('vary')).toBe('Accept');
    const products = JSON.parse(await readFile(new URL('products.json', EMBEDDED_CATALOGUE_DIR), 'utf8')) as {
      image: string;
    }[];
    expect(variant.body.equals(await readFile(new URL(`images/${products[0]!.image}`, EMBEDDED_CATALOGUE_DIR)))).toBe(true);
  });
});

describe('image hosts, through the image route', () => {
  it('answers 502 for a photo the upstream names on another host or port, which is never contacted', async () => {
    const elsewhere = await startUpstreamStub();
    others.push(elsewhere);
    await start({ upstream: { imageOrigin: elsewhere.url } });
    for (const path of ['/api/products/1/image', '/api/products/1/image?w=320']) {
      const response = await get(path);
      expect(response.status).toBe(502);
      expect(JSON.parse(response.body.toString())).toEqual({ error: MESSAGES.catalogueUnavailable });
    }
    expect(elsewhere.requestCount()).toBe(0);
    expect(site.logs.some((record) => JSON.stringify(record).includes('nor in IMAGE_HOSTS'))).toBe(true);
  });

  it('fetches it from an origin listed in IMAGE_HOSTS', async () => {
    const cdn = await startUpstreamStub();
    others.push(cdn);
    await start({ upstream: { imageOrigin: cdn.url }, config: { IMAGE_HOSTS: cdn.url } });
    expect((await get('/api/products/1/image?w=320')).status).toBe(200);
    expect(cdn.requestCount('/photos/1.jpg')).toBe(1);
  });
});
