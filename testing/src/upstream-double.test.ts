import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from './fixture-products.js';
import { startUpstreamStub, type UpstreamStub } from './upstream-double.js';

let upstream: UpstreamStub | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

describe('the upstream double', () => {
  it('serves the fixture products with absolute image URLs on its own address', async () => {
    upstream = await startUpstreamStub();
    const products = (await (await fetch(`${upstream.url}/products`)).json()) as { id: number; image: string }[];
    expect(products.map((product) => product.id)).toEqual(FIXTURE_PRODUCTS.map((product) => product.id));
    expect(products[0]?.image).toBe(`${upstream.url}/images/1.png`);
    expect(upstream.requestCount('/products')).toBe(1);
  });

  it('answers an override for the next `times` requests only, then as before', async () => {
    upstream = await startUpstreamStub();
    upstream.override('/products/1', 'status500', { times: 2 });
    const statuses = [];
    for (let count = 0; count < 3; count += 1) statuses.push((await fetch(`${upstream.url}/products/1`)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });
});
