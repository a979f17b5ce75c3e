import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { startUpstreamStub, TINY_PNG, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { createHttpSource } from './http-source.js';
import { UpstreamError } from './product-source.js';

let stub: UpstreamStub;

afterEach(async () => {
  await stub.close();
});

async function source(timeoutMs = 2000) {
  stub = await startUpstreamStub();
  return createHttpSource({ baseUrl: stub.url, timeoutMs, logger: createLogger('silent') });
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

  it('refuses bodies beyond its size limit', async () => {
    const http = await source();
    stub.override('/products', { status: 200, body: `[${'0,'.repeat(6 * 1024 * 1024)}0]` });
    const error = await upstreamError(http.listProducts());
    expect(String((error.cause as Error).message)).toMatch(/maxContentLength/);
  });

  it('fetches an image the upstream names relative to its base URL', async () => {
    const http = await source();
    const image = await http.getImage('/images/4.png');
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
