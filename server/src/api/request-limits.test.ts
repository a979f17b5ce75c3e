import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { rawExchange } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from '@catalogue/testing/test-site';
import { MAX_API_URL_LENGTH } from './uri-too-long.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

function portOf(site: TestSite): number {
  return (site.server.address() as AddressInfo).port;
}

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

  it('leaves a URL beyond the header limit to Node, which answers 431 and closes', async () => {
    site = await startTestSite();
    const response = await rawExchange(portOf(site), `GET /api/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(response.status).toBe(431);
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

describe('request bodies', () => {
  it('answers a POST at once with a JSON 405, without waiting for the 10 MB body it announces', async () => {
    site = await startTestSite();
    const response = await rawExchange(
      portOf(site),
      'POST /api/products HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"a":',
    );
    expect(response.status).toBe(405);
    expect(JSON.parse(response.body)).toEqual({ error: 'Method not allowed' });
    expect(site.upstream.requestCount()).toBe(0);
  });

  it('never parses a body: broken JSON gets the same 405 or 404 as none', async () => {
    site = await startTestSite();
    const broken = '{"__proto__": {"polluted": true}, "x": ';
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      await request(site.server)[method]('/api/products/1').set('Content-Type', 'application/json').send(broken).expect(405);
    }
    await request(site.server)
      .post('/api/nope')
      .set('Content-Type', 'application/json')
      .send(broken)
      .expect(404, { error: MESSAGES.notFound });
    await request(site.server).post('/products').type('form').send('a[b]=c').expect(404, { error: MESSAGES.notFound });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a GET that carries a body as it would without one', async () => {
    site = await startTestSite();
    const status = await new Promise<number>((resolve, reject) => {
      const body = '{"id": 99}';
      const headers = { 'Content-Type': 'application/json', 'Content-Length': String(body.length) };
      const req = httpRequest({ host: '127.0.0.1', port: portOf(site), path: '/api/products/2', method: 'GET', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(site.upstream.requestCount('/products/2')).toBe(1);
  });
});
