import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decompressionBomb, makePhoto, productPhoto } from '@catalogue/testing/photos';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProductImage } from '../catalogue/sources/product-source.js';
import { createImageResizer, MAX_INPUT_PIXELS, UnreadableImageError } from './resize-image.js';

const KB = 1024;

/** Product 1's photo: the largest of the upstream's, 1,049 × 1,500. */
async function largestPhoto(): Promise<ProductImage> {
  return { body: await productPhoto(1), contentType: 'image/jpeg' };
}

async function describeImage(image: ProductImage) {
  const { format, width, height } = await sharp(image.body).metadata();
  return { contentType: image.contentType, format, width, height };
}

async function unreadable(promise: Promise<unknown>): Promise<UnreadableImageError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UnreadableImageError)) throw new Error(`expected an UnreadableImageError, got ${String(error)}`);
  return error;
}

describe('resizing an image', () => {
  const resizer = createImageResizer();

  it.each([
    ['avif', 'image/avif', 'heif'],
    ['webp', 'image/webp', 'webp'],
    ['original', 'image/jpeg', 'jpeg'],
  ] as const)('makes a 320 px %s variant of a 1,049 × 1,500 JPEG, keeping its aspect ratio', async (format, contentType, decoded) => {
    const variant = await resizer.resize(await largestPhoto(), 320, format, 'photo 1');
    expect(await describeImage(variant)).toEqual({ contentType, format: decoded, width: 320, height: 458 });
    if (format !== 'original') expect(variant.body.length).toBeLessThanOrEqual(30 * KB);
  });

  it('never upscales: a width past the photo keeps the photo’s own size', async () => {
    const small: ProductImage = { body: await makePhoto({ width: 370, height: 333, seed: 14 }), contentType: 'image/jpeg' };
    const variant = await resizer.resize(small, 1280, 'webp', 'photo 14');
    expect(await describeImage(variant)).toMatchObject({ width: 370, height: 333 });
  });

  it('keeps a PNG a PNG and turns other formats into PNG for browsers that take neither AVIF nor WebP', async () => {
    const png = await sharp({ create: { width: 600, height: 400, channels: 4, background: '#3366cc80' } })
      .png()
      .toBuffer();
    const gif = await sharp(png).gif().toBuffer();
    expect(await describeImage(await resizer.resize({ body: png, contentType: 'image/png' }, 160, 'original', 'a png'))).toEqual({
      contentType: 'image/png',
      format: 'png',
      width: 160,
      height: 107,
    });
    expect(await describeImage(await resizer.resize({ body: gif, contentType: 'image/gif' }, 160, 'original', 'a gif'))).toMatchObject({
      contentType: 'image/png',
      format: 'png',
    });
  });

  it('turns a photo stored sideways (EXIF orientation) upright before measuring its width', async () => {
    const sideways = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const variant = await resizer.resize({ body: sideways, contentType: 'image/jpeg' }, 160, 'webp', 'sideways');
    expect(await describeImage(variant)).toMatchObject({ width: 160, height: 320 });
  });

  it('passes an SVG through unchanged', async () => {
    const svg: ProductImage = {
      body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>'),
      contentType: 'image/svg+xml',
    };
    expect(await resizer.resize(svg, 320, 'avif', 'an svg')).toBe(svg);
  });

  it.each([
    ['random bytes', Buffer.from('not an image at all, just text that claims to be one')],
    ['an HTML page', Buffer.from('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')],
    ['an empty body', Buffer.alloc(0)],
  ])('refuses %s with an UnreadableImageError naming the image', async (_label, body) => {
    const error = await unreadable(resizer.resize({ body, contentType: 'image/jpeg' }, 320, 'webp', 'http://upstream/images/9.jpg'));
    expect(error.message).toMatch(/^the image at http:\/\/upstream\/images\/9\.jpg cannot be resized: /);
    expect(error.timedOut).toBe(false);
  });

  it('refuses a truncated JPEG', async () => {
    const photo = await productPhoto(2);
    await unreadable(resizer.resize({ body: photo.subarray(0, photo.length / 2), contentType: 'image/jpeg' }, 320, 'webp', 'half'));
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = decompressionBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200 * KB);
    const error = await unreadable(resizer.resize({ body: bomb, contentType: 'image/png' }, 320, 'avif', 'bomb'));
    expect(error.message).toMatch(/pixel limit/i);
    // Just under the limit, the same kind of file is an image like any other.
    const side = Math.floor(Math.sqrt(MAX_INPUT_PIXELS));
    const variant = await resizer.resize({ body: decompressionBomb(side, 1), contentType: 'image/png' }, 160, 'original', 'wide');
    expect(await describeImage(variant)).toMatchObject({ width: 160 });
  });
});

describe('a burst of cold variants', () => {
  let closeServer: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await closeServer?.();
    closeServer = undefined;
  });

  it('runs at most `concurrency` resizes at once, while other requests keep being answered', async () => {
    const server = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    const healthz = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;

    const resizer = createImageResizer({ concurrency: 1 });
    const photo = await largestPhoto();
    let mostAtOnce = 0;
    let burstDone = false;
    const watch = setInterval(() => {
      mostAtOnce = Math.max(mostAtOnce, sharp.counters().process);
    }, 1);
    const burst = Promise.all(
      ([1280, 960, 800, 640, 480, 320] as const).map((width) => resizer.resize(photo, width, 'avif', `photo at ${width}`)),
    ).finally(() => {
      burstDone = true;
      clearInterval(watch);
    });

    // Ten requests one after another, each waiting for the last: only possible if the event loop is free.
    let answeredDuringBurst = 0;
    for (let request = 0; request < 10; request += 1) {
      const response = await fetch(healthz);
      expect(await response.json()).toEqual({ status: 'ok' });
      if (!burstDone) answeredDuringBurst += 1;
    }
    const variants = await burst;

    expect(answeredDuringBurst).toBe(10);
    expect(variants.map((variant) => variant.contentType)).toEqual(Array(6).fill('image/avif'));
    expect(mostAtOnce).toBe(1);
  });
});
