import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { startTestSite, type TestSite } from './test-site.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('startTestSite', () => {
  it('runs the real server in front of its own upstream double, and lists the API paths it received in order', async () => {
    site = await startTestSite({ products: FIXTURE_PRODUCTS.slice(0, 3) });
    const list = await fetch(`${site.url}/api/products`);
    expect(list.headers.get('x-cache')).toBe('MISS');
    expect(((await list.json()) as unknown[]).length).toBe(3);
    await fetch(`${site.url}/api/products/2?x=1`);
    await fetch(`${site.url}/healthz`);
    await fetch(`${site.url}/api/products`);
    expect(site.apiRequests).toEqual(['/api/products', '/api/products/2', '/api/products']);
    // The second list request was a cache hit: the upstream was asked once.
    expect(site.upstream.requestCount('/products')).toBe(1);
  });

  it('takes configuration as the environment variables the README names', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1' } });
    expect((await fetch(`${site.url}/api/products`)).status).toBe(200);
    expect((await fetch(`${site.url}/api/products`)).status).toBe(429);
  });
});
