import { readdirSync } from 'node:fs';
import type { Product } from '@catalogue/shared/product';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger.js';
import { TINY_PNG } from '@catalogue/testing/fake-store-routes';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { createCapturingLogger } from '../../testing/capturing-logger.js';
import { createHttpSource, type HttpSourceOptions } from './http-source.js';
import { IMAGE_NOT_MODIFIED, type ProductImage, type ProductSource, UpstreamError } from './product-source.js';
import { bytesOf } from '../../testing/body-bytes.js';

/** The image a plain (unconditional) fetch answers: never "not modified", which only a conditional one may be. */
function fetchedImage(image: ProductImage | typeof IMAGE_NOT_MODIFIED): ProductImage {
  if (image === IMAGE_NOT_MODIFIED) throw new Error('an unconditional fetch answered "not modified"');
  return image;
}

let stub: UpstreamStub;

afterEach(async () => {
  await stub.close();
});

let http: ProductSource | undefined;

afterEach(async () => {
  await http?.close?.();
  http = undefined;
});

async function source(timeoutMs = 2000, options: Partial<HttpSourceOptions> = {}) {
  stub = await startUpstreamStub();
  http = createHttpSource({ baseUrl: stub.url, timeoutMs, logger: createLogger('silent'), ...options });
  return http;
}

async function upstreamError(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

describe('the http source', () => {
  it('keeps the upstream image URL on the products it returns', async () => {
    const http = await source();
    expect((await http.getProduct(1))?.image).toBe(`${stub.url}/images/1.png`);
  });

  it('marks a timeout as timedOut', async () => {
    const http = await source(50);
    await stub.setMode('hang');
    expect((await upstreamError(http.listProducts())).timedOut).toBe(true);
  });

  it.each(['status500', 'reset', 'refuse'] as const)('does not mark %s as timedOut', async (mode) => {
    const http = await source();
    await stub.setMode(mode);
    expect((await upstreamError(http.listProducts())).timedOut).toBe(false);
  });

  it('refuses bodies beyond UPSTREAM_MAX_BYTES, naming the setting', async () => {
    const http = await source(2000, { maxJsonBytes: 4096 });
    stub.override('/products', { status: 200, body: `[${'0,'.repeat(4096)}0]` });
    const error = await upstreamError(http.listProducts());
    expect(error.message).toBe(`${stub.url}/products answered more than UPSTREAM_MAX_BYTES (4096 bytes)`);
  });

  it('parses the list on its worker: valid products in order, the others dropped with a warning, the public body made', async () => {
    const logger = createCapturingLogger();
    const http = await source(2000, { logger: logger.logger });
    stub.setProducts([FIXTURE_PRODUCTS[0], { id: 'two', title: 2 }, FIXTURE_PRODUCTS[2]]);
    const list = await http.listProducts();
    const products = JSON.parse((await list.copyJson()).toString('utf8')) as Product[];
    expect(products.map((product) => product.id)).toEqual([FIXTURE_PRODUCTS[0]!.id, FIXTURE_PRODUCTS[2]!.id]);
    expect(products[0]?.image).toBe(`${stub.url}${FIXTURE_PRODUCTS[0]!.image}`);
    expect(logger.records.filter((entry) => entry.msg === 'Dropped an upstream product of the wrong shape')).toHaveLength(1);
    expect(JSON.parse(bytesOf(list.body.identity).toString('utf8'))).toEqual(
      products.map((product) => ({ ...product, image: `/api/products/${product.id}/image` })),
    );
  });

  it.each([
    ['html', 'answered 200 with a body that is not JSON'],
    ['badJson', 'answered 200 with a body that is not JSON'],
    ['null', 'did not answer a JSON array'],
    ['empty', 'did not answer a JSON array'],
  ] as const)('fails a %s list', async (mode, message) => {
    const http = await source();
    await stub.setMode(mode);
    expect((await upstreamError(http.listProducts())).message).toBe(`${stub.url}/products ${message}`);
  });

  it('fetches an image the upstream names relative to its base URL', async () => {
    const http = await source();
    const image = fetchedImage(await http.getImage('/images/4.png'));
    expect(image.contentType).toBe('image/png');
    expect(image.body.equals(TINY_PNG)).toBe(true);
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'data:image/png;base64,AAAA'])(
    'refuses the image location %s',
    async (location) => {
      const http = await source();
      await upstreamError(http.getImage(location));
      expect(stub.requestCount()).toBe(0);
    },
  );

  it('fails an image answered with a non-2xx status', async () => {
    const http = await source();
    stub.override('/images/4.png', 'notFound');
    await upstreamError(http.getImage('/images/4.png'));
  });
});

describe('the hosts images come from', () => {
  /** Another server on this machine: an internal service the upstream must not be able to reach through us. */
  let other: UpstreamStub;

  afterEach(async () => {
    await other.close();
  });

  async function sourceWith({ otherIsAnImageHost = false } = {}) {
    stub = await startUpstreamStub();
    other = await startUpstreamStub();
    const imageHosts = otherIsAnImageHost ? [other.url] : [];
    return createHttpSource({ baseUrl: stub.url, timeoutMs: 2000, imageHosts, logger: createLogger('silent') });
  }

  it('fetches from the upstream’s own origin, following redirects that stay on it', async () => {
    const http = await sourceWith();
    stub.override('/images/moved.png', { status: 301, body: '', headers: { Location: '/images/4.png' } });
    expect((await http.getImage(`${stub.url}/images/moved.png`).then(fetchedImage)).body.equals(TINY_PNG)).toBe(true);
    expect(stub.requestCount('/images/4.png')).toBe(1);
  });

  it('refuses another origin without contacting it, whether named directly or by a redirect', async () => {
    const http = await sourceWith();
    const direct = await upstreamError(http.getImage(`${other.url}/images/4.png`));
    expect(direct.message).toBe(`the image location ${other.url}/images/4.png is neither on the upstream's origin nor in IMAGE_HOSTS`);

    stub.override('/images/moved.png', { status: 302, body: '', headers: { Location: `${other.url}/images/4.png` } });
    const redirected = await upstreamError(http.getImage('/images/moved.png'));
    expect(redirected.message).toBe(
      `${stub.url}/images/moved.png redirected to ${other.url}/images/4.png, which is neither on the upstream's origin nor in IMAGE_HOSTS`,
    );
    expect(redirected.timedOut).toBe(false);
    expect(other.requestCount()).toBe(0);
  });

  it('treats another port, scheme or host name of the same machine as another origin', async () => {
    const http = await sourceWith();
    const port = new URL(stub.url).port;
    for (const location of [
      `https://127.0.0.1:${port}/images/4.png`,
      `http://localhost:${port}/images/4.png`,
      'http://127.0.0.1/images/4.png',
    ]) {
      await upstreamError(http.getImage(location));
    }
    expect(stub.requestCount()).toBe(0);
  });

  it('fetches from IMAGE_HOSTS origins, and follows redirects among the allowed origins only', async () => {
    const third = await startUpstreamStub();
    try {
      const http = await sourceWith({ otherIsAnImageHost: true });
      expect((await http.getImage(`${other.url}/images/4.png`).then(fetchedImage)).body.equals(TINY_PNG)).toBe(true);

      other.override('/images/cdn.png', { status: 307, body: '', headers: { Location: `${stub.url}/images/5.png` } });
      expect((await http.getImage(`${other.url}/images/cdn.png`).then(fetchedImage)).body.equals(TINY_PNG)).toBe(true);
      expect(stub.requestCount('/images/5.png')).toBe(1);

      stub.override('/images/away.png', { status: 302, body: '', headers: { Location: `${other.url}/images/hop.png` } });
      other.override('/images/hop.png', { status: 302, body: '', headers: { Location: `${third.url}/images/4.png` } });
      await upstreamError(http.getImage('/images/away.png'));
      expect(other.requestCount('/images/hop.png')).toBe(1);
      expect(third.requestCount()).toBe(0);
    } finally {
      await third.close();
    }
  });
});

/** This process's open file descriptors: the sockets of the source and of the double (which runs in-process) alike. */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

describe('the http source’s connections', () => {
  it('releases the socket of every request to a hanging upstream at the time limit: the count returns to where it was', async () => {
    const http = await source(100);
    const before = openDescriptors();
    await stub.setMode('hang');
    for (let round = 0; round < 5; round += 1) {
      const failures = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          upstreamError(index % 2 === 0 ? http.getProduct(index + 1) : http.getImage(`/images/${index}.png`)),
        ),
      );
      expect(failures.every((failure) => failure.timedOut)).toBe(true);
    }
    // 100 hung requests later, neither end holds a connection any more…
    await vi.waitFor(() => expect(stub.openConnections()).toBe(0));
    // …and the process holds no descriptor more than before them (a couple may still be closing).
    await vi.waitFor(() => expect(openDescriptors()).toBeLessThanOrEqual(before + 2));
  });

  it('opens at most 32 connections to the upstream at once: a burst past that waits for a free one', async () => {
    const http = await source(1000);
    await stub.setMode('hang');
    const burst = Array.from({ length: 100 }, (_, index) => upstreamError(http.getProduct(index + 1)));
    const failures = await Promise.all(burst);
    expect(failures.every((failure) => failure.timedOut)).toBe(true);
    // Unbounded, all 100 would have been open at once; the rest queued, and ran out of time waiting or got a
    // connection freed by an earlier one.
    expect(stub.peakConnections()).toBeGreaterThan(0);
    expect(stub.peakConnections()).toBeLessThanOrEqual(32);
  });
});
