import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { rawExchange } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite } from '../testing/test-site.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

function portOf(site: TestSite): number {
  return (site.server.address() as AddressInfo).port;
}

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
