import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { MAX_API_URL_LENGTH } from './uri-too-long.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

/** `path` padded with a query to exactly `length` characters. */
function urlOfLength(path: string, length: number): string {
  const prefix = `${path}?pad=`;
  return prefix + 'a'.repeat(length - prefix.length);
}

describe('URL length', () => {
  it(`answers an API URL longer than ${MAX_API_URL_LENGTH} characters with a JSON 414, asking nobody`, async () => {
    site = await startTestSite();
    for (const url of [
      urlOfLength('/api/products', MAX_API_URL_LENGTH + 1),
      `/api/products/${'1'.repeat(3000)}`,
      `/api/${'x'.repeat(10_000)}`,
    ]) {
      const response = await request(site.server).get(url).expect(414);
      expect(response.body).toEqual({ error: 'URI Too Long' });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(site.upstream.requestCount()).toBe(0);
  });

  it('accepts an API URL of exactly the limit', async () => {
    site = await startTestSite();
    await request(site.server).get(urlOfLength('/api/products', MAX_API_URL_LENGTH)).expect(200);
  });

  it('leaves long page URLs to the single-page app, which ignores their query', async () => {
    site = await startTestSite();
    await request(site.server).get(urlOfLength('/products', 3000)).expect(200).expect('Content-Type', /html/);
  });
});
