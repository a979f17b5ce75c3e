import { rawGet } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { afterEach, describe, expect, it } from 'vitest';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await rawGet(site!.server, path, headers);
  return { ...response, text: response.body.toString('utf8') };
}

describe('the built client’s static files', () => {
  it('serves hashed assets immutable for a year, compressed when asked', async () => {
    site = await startTestSite();
    const asset = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
  });

  it('serves the other public files for revalidation', async () => {
    site = await startTestSite();
    const logo = await get('/logo.svg');
    expect(logo.status).toBe(200);
    expect(logo.headers['cache-control']).toBe('no-cache');
    expect(logo.headers['content-type']).toBe('image/svg+xml');
  });

  it('compresses neither API answers nor pages a second time: they carry their own encodings', async () => {
    site = await startTestSite();
    for (const path of ['/api/products', '/products']) {
      await get(path);
      const response = await get(path, { 'Accept-Encoding': 'gzip' });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers.etag).toMatch(/-gzip"$/);
    }
  });

  it.each([
    '/index.html',
    '/server/entry-server.js',
    '/%73erver/entry-server.js',
    '/assets/../server/entry-server.js',
    '/assets/..%2fserver%2fentry-server.js',
  ])('never sends the page template or the server renderer for %s: it is a page path like any other', async (path) => {
    site = await startTestSite();
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('export async function render');
    expect(response.text).not.toContain('<!--app-html-->');
  });

  it.each([
    '/../secret.txt',
    '/../../etc/passwd',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/%2e%2e%5csecret.txt',
    '/index.html%00.js',
    '/%00',
    '/..%00/secret.txt',
    '/%E0%A4%A',
  ])('never reads outside the static folder for %s', async (path) => {
    site = await startTestSite();
    const response = await get(path);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.text).not.toContain(site.secret);
    expect(response.text).not.toContain('root:');
  });

  it('answers pages 503 with one line of text while the client is not built, and warns once at start', async () => {
    site = await startTestSite({ withoutClient: true });
    const response = await get('/products');
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text.trim().split('\n')).toHaveLength(1);
    expect(response.text).toMatch(/not built/);
    expect((await get('/')).status).toBe(503);
    expect((await get('/logo.svg')).status).toBe(200);
    expect(site.logs.filter((record) => /client is not built/.test(record.msg))).toHaveLength(1);
  });
});
