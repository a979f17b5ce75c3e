import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { rawGet } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from '@catalogue/testing/test-site';
import { isAppRoute } from './spa.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

describe('the single-page app', () => {
  it.each(['/', '/products', '/products/', '/productdetails/1', '/productdetails/abc', '/products?q=mug&sort=nameAZ'])(
    'answers index.html with 200 for the app route %s',
    async (path) => {
      site = await startTestSite();
      const response = await request(site.server).get(path).expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/nope', '/productdetails', '/productdetails/1/extra', '/api-docs', '/assets/missing.js'])(
    'answers the same page with 404 for the unknown path %s',
    async (path) => {
      site = await startTestSite();
      const response = await request(site.server).get(path).expect(404);
      expect(response.text).toContain('<div id="root">');
    },
  );

  it('answers HEAD on an app route without a body', async () => {
    site = await startTestSite();
    const response = await request(site.server).head('/products').expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves hashed assets as immutable for a year, compressed when asked', async () => {
    site = await startTestSite();
    const response = await rawGet(site.server, '/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('serves other static files for revalidation', async () => {
    site = await startTestSite();
    const response = await request(site.server).get('/logo.svg').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('image/svg+xml');
  });

  it('does not compress API answers a second time', async () => {
    site = await startTestSite();
    const response = await rawGet(site.server, '/api/products', { 'Accept-Encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
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
    const response = await rawGet(site.server, path);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.body.toString('utf8')).not.toContain(site.secret);
    expect(response.body.toString('utf8')).not.toContain('root:');
  });

  it('answers 503 with one line of text while the client is not built, and warns once at start', async () => {
    site = await startTestSite({ withoutClient: true });
    const response = await request(site.server).get('/products').expect(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text.trim().split('\n')).toHaveLength(1);
    expect(response.text).toMatch(/not built/);
    await request(site.server).get('/').expect(503);
    expect(site.logs.filter((record) => /client is not built/.test(record.msg))).toHaveLength(1);
  });
});

describe('isAppRoute', () => {
  it.each([
    ['/', true],
    ['/products', true],
    ['/productdetails/12', true],
    ['/productdetails/', false],
    ['/product', false],
    ['/productsx', false],
  ])('%s → %s', (path, expected) => {
    expect(isAppRoute(path)).toBe(expected);
  });
});
