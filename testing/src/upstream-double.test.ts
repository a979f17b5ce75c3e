import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from './fixture-products.js';
import { photoSize, productPhoto } from './photos.js';
import { startUpstreamStub, type UpstreamStub } from './upstream-double.js';

const doubles: UpstreamStub[] = [];

afterEach(async () => {
  await Promise.all(doubles.splice(0).map((double) => double.close()));
});

async function start(options: Parameters<typeof startUpstreamStub>[0] = {}) {
  const double = await startUpstreamStub(options);
  doubles.push(double);
  return double;
}

async function productImages(double: UpstreamStub): Promise<string[]> {
  const products = (await (await fetch(`${double.url}/products`)).json()) as { image: string }[];
  return products.map((product) => product.image);
}

describe('the upstream double', () => {
  it('serves the fixture products with absolute image URLs on its own address', async () => {
    const upstream = await start();
    const products = (await (await fetch(`${upstream.url}/products`)).json()) as { id: number; image: string }[];
    expect(products.map((product) => product.id)).toEqual(FIXTURE_PRODUCTS.map((product) => product.id));
    expect(products[0]?.image).toBe(`${upstream.url}/images/1.png`);
    expect(upstream.requestCount('/products')).toBe(1);
  });

  it('sends half of the list and then cuts the connection, or stalls, mid-body', async () => {
    const upstream = await start();
    const whole = Buffer.from(await (await fetch(`${upstream.url}/products`)).arrayBuffer());
    for (const mode of ['cutMidBody', 'stallMidBody'] as const) {
      await upstream.setMode(mode);
      const response = await fetch(`${upstream.url}/products`, { signal: AbortSignal.timeout(500) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(whole.length));
      const received: Uint8Array[] = [];
      const ended = await (async () => {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) received.push(chunk);
        return 'ended';
      })().catch((error: Error) => error.name);
      expect(Buffer.concat(received)).toEqual(whole.subarray(0, whole.length >> 1));
      expect(ended, mode).toBe(mode === 'cutMidBody' ? 'TypeError' : 'TimeoutError');
    }
  });

  it('answers an override for the next `times` requests only, then as before', async () => {
    const upstream = await start();
    upstream.override('/products/1', 'status500', { times: 2 });
    const statuses = [];
    for (let count = 0; count < 3; count += 1) statuses.push((await fetch(`${upstream.url}/products/1`)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('sends the extra headers of a canned answer, such as a redirect', async () => {
    const double = await start();
    double.override('/images/old.png', { status: 302, body: '', headers: { Location: '/images/new.png' } });
    const response = await fetch(`${double.url}/images/old.png`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/images/new.png');
  });
});

describe('the upstream double with photos', () => {
  it('names a photo for every product and serves it as image/jpeg, at the real upstream’s sizes', async () => {
    const double = await start({ photos: true });
    const images = await productImages(double);
    expect(images[0]).toBe(`${double.url}/photos/1.jpg`);

    const response = await fetch(images[0]!);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await productPhoto(1))).toBe(true);
    const { width, height } = await sharp(body).metadata();
    expect({ width, height }).toEqual(photoSize(1));
  });

  it('names image URLs on another origin when told to', async () => {
    const photoHost = await start();
    const double = await start({ photos: true, imageOrigin: photoHost.url });
    const images = await productImages(double);
    expect(images.every((image) => image.startsWith(`${photoHost.url}/photos/`))).toBe(true);
    expect((await fetch(images[1]!)).status).toBe(200);
    expect(photoHost.requestCount('/photos/2.jpg')).toBe(1);
    expect(double.requestCount('/photos/2.jpg')).toBe(0);
  });
});
