import { MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { MALFORMED_ESCAPE } from '../http/errors.js';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import type { PathMode } from '@catalogue/testing/upstream-double';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

async function start(env: Record<string, string> = {}) {
  site = await startTestSite({ config: env });
  return site;
}

describe('GET /api/products', () => {
  it('answers the products in upstream order, images rewritten to this server', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products').expect(200);

    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const products = response.body as Product[];
    expect(products.map((product) => product.id)).toEqual(FIXTURE_PRODUCTS.map((product) => product.id));
    expect(products[0]).toEqual({ ...FIXTURE_PRODUCTS[0], image: '/api/products/1/image' });
    expect(products.every((product) => product.image === `/api/products/${product.id}/image`)).toBe(true);
    // The product without a rating stays without one.
    expect(products.find((product) => product.id === 5)).not.toHaveProperty('rating');
  });

  it('drops products of the wrong shape and unknown fields, and logs what it dropped', async () => {
    site = await startTestSite({
      products: [
        { ...FIXTURE_PRODUCTS[0], secretField: 'upstream internals' },
        { id: 2, title: 'No price' },
        { ...FIXTURE_PRODUCTS[2], price: 'cheap' },
        FIXTURE_PRODUCTS[3],
      ],
    });
    const response = await request(site.server).get('/api/products').expect(200);

    expect((response.body as Product[]).map((product) => product.id)).toEqual([1, 4]);
    expect((response.body as Product[])[0]).not.toHaveProperty('secretField');
    expect(site.logs.filter((record) => record.msg === 'Dropped an upstream product of the wrong shape')).toHaveLength(2);
  });

  it.each<[PathMode | 'refuse', number, string]>([
    ['refuse', 502, MESSAGES.catalogueUnavailable],
    ['reset', 502, MESSAGES.catalogueUnavailable],
    ['status500', 502, MESSAGES.catalogueUnavailable],
    ['html', 502, MESSAGES.catalogueUnavailable],
    ['badJson', 502, MESSAGES.catalogueUnavailable],
    ['null', 502, MESSAGES.catalogueUnavailable],
    ['empty', 502, MESSAGES.catalogueUnavailable],
    ['notFound', 502, MESSAGES.catalogueUnavailable],
  ])('answers %s from the upstream with %d and a message', async (mode, status, message) => {
    const { server, upstream } = await start();
    await upstream.setMode(mode);
    const response = await request(server).get('/api/products').expect(status);
    expect(response.body).toEqual({ error: message });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 504 when the upstream does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const { server, upstream } = await start({ UPSTREAM_TIMEOUT_MS: '50' });
    await upstream.setMode('hang');
    const response = await request(server).get('/api/products').expect(504);
    expect(response.body).toEqual({ error: MESSAGES.catalogueTimeout });
  });

  it('answers 502 when the upstream answers JSON that is not an array', async () => {
    const { server, upstream } = await start();
    upstream.override('/products', { status: 200, body: '{"products":[]}' });
    await request(server).get('/api/products').expect(502, { error: MESSAGES.catalogueUnavailable });
  });
});

describe('GET /api/products/:id', () => {
  it('answers one product with its image rewritten', async () => {
    const { server } = await start();
    const response = await request(server).get('/api/products/9').expect(200);
    expect(response.body).toEqual({ ...FIXTURE_PRODUCTS[8], image: '/api/products/9/image' });
  });

  it('accepts leading zeros as the same id', async () => {
    const { server, upstream } = await start();
    const response = await request(server).get('/api/products/007').expect(200);
    expect(response.body).toMatchObject({ id: 7 });
    expect(upstream.requestCount('/products/7')).toBe(1);
  });

  it.each(['abc', '1.5', '-1', '+1', '1e3', '%201', '%20', '0x10', '1'.repeat(40), String(Number.MAX_SAFE_INTEGER + 1)])(
    'answers 400 for the id %j without asking the upstream',
    async (id) => {
      const { server, upstream } = await start();
      const response = await request(server).get(`/api/products/${id}`).expect(400);
      expect(response.body).toEqual({ error: MESSAGES.invalidProductId });
      expect(upstream.requestCount()).toBe(0);
    },
  );

  it('answers 404 for an id the upstream does not know (200 null, as the Fake Store API does)', async () => {
    const { server, upstream } = await start();
    await request(server).get('/api/products/999').expect(404, { error: MESSAGES.productNotFound });
    expect(upstream.requestCount('/products/999')).toBe(1);
  });

  it.each<PathMode>(['notFound', 'empty', 'null'])('answers 404 when the upstream answers %s', async (mode) => {
    const { server, upstream } = await start();
    upstream.override('/products/3', mode);
    await request(server).get('/api/products/3').expect(404, { error: MESSAGES.productNotFound });
  });

  it('answers 404 when the upstream answers an object without id', async () => {
    const { server, upstream } = await start();
    upstream.override('/products/1', { status: 200, body: JSON.stringify({ title: 'Orphan', price: 1 }) });
    await request(server).get('/api/products/1').expect(404, { error: MESSAGES.productNotFound });
  });

  it.each<PathMode | 'refuse'>(['refuse', 'reset', 'status500', 'html', 'badJson'])(
    'answers 502 "Product not found" when the upstream fails with %s',
    async (mode) => {
      const { server, upstream } = await start();
      await upstream.setMode(mode);
      await request(server).get('/api/products/1').expect(502, { error: MESSAGES.productNotFound });
    },
  );

  it('answers 502 when the upstream sends an object with an id but the wrong shape', async () => {
    const { server, upstream } = await start();
    upstream.override('/products/1', { status: 200, body: JSON.stringify({ id: 1, title: 42 }) });
    await request(server).get('/api/products/1').expect(502, { error: MESSAGES.productNotFound });
  });

  it('answers 502 when the upstream sends another product than the one asked for', async () => {
    const { server, upstream } = await start();
    upstream.override('/products/1', { status: 200, body: JSON.stringify(FIXTURE_PRODUCTS[1]) });
    await request(server).get('/api/products/1').expect(502, { error: MESSAGES.productNotFound });
  });

  it('answers 504 "Product not found" when the upstream hangs past UPSTREAM_TIMEOUT_MS', async () => {
    const { server, upstream } = await start({ UPSTREAM_TIMEOUT_MS: '50' });
    await upstream.setMode('hang');
    await request(server).get('/api/products/1').expect(504, { error: MESSAGES.productNotFound });
  });

  it('answers a malformed percent escape with 400, never a stack', async () => {
    const { server, upstream } = await start();
    const response = await request(server).get('/api/products/%E0%A4%A').expect(400);
    expect(response.body).toEqual({ error: MALFORMED_ESCAPE });
    expect(upstream.requestCount()).toBe(0);
  });
});

describe('methods', () => {
  it.each([
    '/api/products',
    '/api/products/1',
    '/api/products/1/image',
    '/api/products/categories',
    '/api/products/category/jewelery',
    '/api/products/category/',
  ])('answers POST %s with 405 and Allow', async (path) => {
    const { server, upstream } = await start();
    const response = await request(server).post(path).expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.body).toEqual({ error: 'Method not allowed' });
    expect(upstream.requestCount()).toBe(0);
  });

  it('answers HEAD like GET, without a body', async () => {
    const { server } = await start();
    const get = await request(server).get('/api/products/1').set('Accept-Encoding', 'br').expect(200);
    const head = await request(server).head('/api/products/1').set('Accept-Encoding', 'br').expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.text ?? '').toBe('');
  });
});
