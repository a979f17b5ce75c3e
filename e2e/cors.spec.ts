import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { type StubbedSite, startStubbedSite } from './fixtures/servers.ts';
import { categoryNames } from './support/catalogue.ts';

/**
 * A program in a browser on another origin reading the API (docs/api.md, "CORS"), in Chromium, which is what enforces
 * CORS: the page is served by a server of its own on another port (another origin), and reads the site's `/api`
 * with `fetch` and `<img>` as a third-party app would.
 */

interface OtherOrigin {
  origin: string;
  close(): Promise<void>;
}

/** A bare page on an origin of its own: no CSP, nothing but the document the test scripts run in. */
async function startOtherOrigin(): Promise<OtherOrigin> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Another app</title><p>Another app</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Read {
  status: number;
  body: unknown;
  headers: Record<string, string | null>;
}

/** What a script on the page can read of one answer, or the error fetch rejects with when CORS refuses it. */
function readFromPage(page: Page, url: string, init: RequestInit = {}): Promise<Read | { refused: string }> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        const names = ['content-type', 'etag', 'x-cache', 'age', 'x-request-id', 'ratelimit'];
        return {
          status: response.status,
          body: (await response.json()) as unknown,
          headers: Object.fromEntries(names.map((name) => [name, response.headers.get(name)])),
        };
      } catch (error) {
        return { refused: String(error) };
      }
    },
    { url, init },
  );
}

test.describe('the API read from another origin, with CORS_ORIGINS at its default (*)', () => {
  let site: StubbedSite;
  let other: OtherOrigin;
  test.beforeAll(async () => {
    [site, other] = await Promise.all([startStubbedSite(), startOtherOrigin()]);
  });
  test.afterAll(async () => {
    await Promise.all([site?.stop(), other?.close()]);
  });

  test('a plain GET is readable, with the caching headers the API exposes', async ({ page }) => {
    await page.goto(other.origin);
    const first = await readFromPage(page, `${site.site.url}/api/products?limit=2&sort=desc`);
    expect(first).toMatchObject({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    if ('refused' in first) throw new Error(first.refused);
    expect((first.body as { id: number }[]).map(({ id }) => id)).toEqual([20, 19]);
    const again = await readFromPage(page, `${site.site.url}/api/products/categories`);
    if ('refused' in again) throw new Error(again.refused);
    expect(again.body).toContain(FIXTURE_PRODUCTS[19]!.category);
    // Not CORS-safelisted, so readable only because the API exposes them.
    expect(again.headers.etag).toMatch(/^"/);
    expect(again.headers['x-cache']).toMatch(/^(HIT|MISS)$/);
    expect(again.headers.age).toMatch(/^\d+$/);
    expect(again.headers.ratelimit).toBeNull(); // the e2e sites run with the rate limit off
  });

  test('a request with a header of its own passes the preflight, and reads the answer and its request id', async ({ page }) => {
    await page.goto(other.origin);
    const category = FIXTURE_PRODUCTS[18]!.category;
    const read = await readFromPage(page, `${site.site.url}/api/products/category/${encodeURIComponent(category)}`, {
      headers: { 'X-Request-Id': 'another-app-7' },
    });
    if ('refused' in read) throw new Error(read.refused);
    expect(read.status).toBe(200);
    expect((read.body as { id: number; category: string }[]).map((product) => product.category)).toEqual([category]);
    expect(read.headers['x-request-id']).toBe('another-app-7');
  });

  test('an error answer is readable too, so the app can show why', async ({ page }) => {
    await page.goto(other.origin);
    const read = await readFromPage(page, `${site.site.url}/api/products?limit=0`);
    expect(read).toEqual(expect.objectContaining({ status: 400, body: { error: 'limit must be a whole number from 1 to 10000' } }));
  });

  test('a product photo shows in a plain <img> on the other origin', async ({ page }) => {
    await page.goto(other.origin);
    const width = await page.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return image.naturalWidth;
    }, `${site.site.url}/api/products/1/image?w=160`);
    expect(width).toBeGreaterThan(0);
  });
});

test.describe('the API read from another origin, with CORS_ORIGINS listing one origin', () => {
  let site: StubbedSite;
  let listed: OtherOrigin;
  let unlisted: OtherOrigin;
  test.beforeAll(async () => {
    [listed, unlisted] = await Promise.all([startOtherOrigin(), startOtherOrigin()]);
    site = await startStubbedSite({}, { CORS_ORIGINS: listed.origin });
  });
  test.afterAll(async () => {
    await Promise.all([site?.stop(), listed?.close(), unlisted?.close()]);
  });

  test('the listed origin reads the catalogue; any other is refused by the browser', async ({ page }) => {
    await page.goto(listed.origin);
    const read = await readFromPage(page, `${site.site.url}/api/products/categories`, { headers: { 'X-Request-Id': 'listed-1' } });
    if ('refused' in read) throw new Error(read.refused);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(categoryNames(FIXTURE_PRODUCTS));

    await page.goto(unlisted.origin);
    expect(await readFromPage(page, `${site.site.url}/api/products/categories`)).toHaveProperty('refused');
    expect(await readFromPage(page, `${site.site.url}/api/products`, { headers: { 'X-Request-Id': 'unlisted-1' } })).toHaveProperty(
      'refused',
    );
  });
});
