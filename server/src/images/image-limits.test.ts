import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { TINY_PNG } from '@catalogue/testing/fake-store-routes';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

const CAP = 1000;

function png(bytes: number): Buffer {
  return Buffer.concat([TINY_PNG, Buffer.alloc(bytes - TINY_PNG.length)]);
}

describe('product images from the upstream', () => {
  it('refuses an image larger than IMAGE_MAX_BYTES with a 502 JSON answer, and keeps nothing', async () => {
    site = await startTestSite({ config: { IMAGE_MAX_BYTES: String(CAP) } });
    const { server, upstream } = site;
    upstream.override('/images/3.png', { status: 200, contentType: 'image/png', body: png(CAP + 1) });
    upstream.override('/images/4.png', { status: 200, contentType: 'image/png', body: png(CAP) });

    const refused = await request(server).get('/api/products/3/image').expect(502);
    expect(refused.body).toEqual({ error: MESSAGES.catalogueUnavailable });
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers['cache-control']).toBe('no-store');
    await request(server).get('/api/products/3/image').expect(502);
    expect(upstream.requestCount('/images/3.png')).toBe(2);

    const atTheCap = await request(server).get('/api/products/4/image').expect(200);
    expect((atTheCap.body as Buffer).length).toBe(CAP);
  });

  it.each(['text/html; charset=utf-8', 'application/octet-stream', 'image-not/png', ''])(
    'refuses an image answered as %j with a 502 JSON answer',
    async (contentType) => {
      site = await startTestSite();
      site.upstream.override('/images/3.png', { status: 200, contentType, body: TINY_PNG });
      const response = await request(site.server).get('/api/products/3/image').expect(502);
      expect(response.body).toEqual({ error: MESSAGES.catalogueUnavailable });
    },
  );

  it('keeps images within IMAGE_CACHE_MAX_BYTES, letting the least recently used go first', async () => {
    const unit = TINY_PNG.length;
    // Room for four small images, or for two small ones and one twice their size.
    site = await startTestSite({ config: { IMAGE_CACHE_MAX_BYTES: String(4 * unit) } });
    const { server, upstream } = site;
    upstream.override('/images/4.png', { status: 200, contentType: 'image/png', body: png(2 * unit) });
    const get = (id: number) => request(server).get(`/api/products/${id}/image`).expect(200);

    await get(1);
    await get(2);
    await get(3);
    await get(1); // now the most recently used; 2 is the least
    await get(4); // 5 units would not fit: 2 goes, though only 3 images were held

    await get(1);
    await get(3);
    await get(4);
    expect([1, 3, 4].map((id) => upstream.requestCount(`/images/${id}.png`))).toEqual([1, 1, 1]);
    await get(2);
    expect(upstream.requestCount('/images/2.png')).toBe(2);
  });
});
