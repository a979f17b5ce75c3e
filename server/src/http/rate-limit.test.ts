import type { IncomingMessage } from 'node:http';
import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { createTestClock } from '@catalogue/testing/test-clock';
import { clientKey, createApiRateLimit } from './rate-limit.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** The two things the limit reads of a request: its socket's address and X-Forwarded-For. */
function requestFrom(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

function limitOf(perMinute: number, trustProxy = false) {
  const clock = createTestClock();
  const limit = createApiRateLimit({ rateLimitPerMinute: perMinute, trustProxy }, clock.now);
  if (limit === null) throw new Error('expected a limit');
  // Without a shared store every count is this process's own: synchronous, as the response cache relies on.
  const consume = (req: IncomingMessage) => {
    const verdict = limit.consume(req);
    if (verdict instanceof Promise) throw new Error('expected a synchronous count');
    return verdict;
  };
  return { clock, limit: { ...limit, consume } };
}

describe('createApiRateLimit', () => {
  it('is off at 0', () => {
    expect(createApiRateLimit({ rateLimitPerMinute: 0, trustProxy: false })).toBeNull();
  });

  it('allows the limit per client in a window that starts at its first request, with the IETF headers', () => {
    const { clock, limit } = limitOf(2);
    const client = requestFrom('198.51.100.7');
    expect(limit.policyHeader).toBe('"2-in-1min"; q=2; w=60');
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=1; t=60', resetSeconds: 60 });
    clock.advanceSeconds(20.5);
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=0; t=40', resetSeconds: 40 });
    expect(limit.consume(client)).toMatchObject({ allowed: false, header: '"2-in-1min"; r=0; t=40' });
    // Another client has its own budget.
    expect(limit.consume(requestFrom('198.51.100.8')).allowed).toBe(true);
    clock.advanceSeconds(39.5);
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=1; t=60', resetSeconds: 60 });
  });

  it('keeps a client counted across the swap of its generations, and forgets it after two idle windows', () => {
    const { clock, limit } = limitOf(3);
    const client = requestFrom('198.51.100.7');
    clock.advanceSeconds(50);
    limit.consume(client);
    limit.consume(client);
    // The generations swap at 60 s; the client's window (50 s to 110 s) is still running after it.
    clock.advanceSeconds(30);
    expect(limit.consume(client)).toMatchObject({ allowed: true, header: '"3-in-1min"; r=0; t=30' });
    expect(limit.consume(client).allowed).toBe(false);
    clock.advanceSeconds(300);
    expect(limit.consume(client)).toMatchObject({ allowed: true, header: '"3-in-1min"; r=2; t=60' });
  });
});

describe('clientKey', () => {
  it('is the socket address unless a proxy is trusted, then the right-most X-Forwarded-For entry', () => {
    expect(clientKey(requestFrom('10.0.0.1', '203.0.113.9'), false)).toBe('10.0.0.1');
    expect(clientKey(requestFrom('10.0.0.1', 'spoofed, 203.0.113.9 '), true)).toBe('203.0.113.9');
    expect(clientKey(requestFrom('10.0.0.1', ' '), true)).toBe('10.0.0.1');
    expect(clientKey(requestFrom('10.0.0.1'), true)).toBe('10.0.0.1');
  });

  it('counts IPv4-mapped addresses as IPv4 and IPv6 ones by their /56', () => {
    expect(clientKey(requestFrom('::ffff:192.0.2.1'), false)).toBe('192.0.2.1');
    expect(clientKey(requestFrom('2001:db8:1:2ff:aaaa::1'), false)).toBe('2001:db8:1:200::/56');
    expect(clientKey(requestFrom('2001:0db8:0001:02ab:ffff:ffff:ffff:ffff'), false)).toBe('2001:db8:1:200::/56');
    expect(clientKey(requestFrom('2001:db8:1:3ff::1'), false)).toBe('2001:db8:1:300::/56');
    expect(clientKey(requestFrom('::1'), false)).toBe('0:0:0:0::/56');
    expect(clientKey(requestFrom('fe80::1%eth0'), false)).toBe('fe80:0:0:0::/56');
  });
});

describe('the limit on /api, over HTTP', () => {
  it('answers 429 JSON past RATE_LIMIT_PER_MINUTE on every API route, with Retry-After and RateLimit headers', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '2' } });
    await request(site.server).get('/api/products').expect(200);
    await request(site.server).get('/api/products/1').expect(200);
    const limited = await request(site.server).get('/api/products/1/image').expect(429);
    expect(limited.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.headers.ratelimit).toMatch(/; r=0;/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    const again = await request(site.server).get('/api/products/1').expect(429);
    expect(again.body).toEqual({ error: MESSAGES.tooManyRequests });
  });

  it('never limits pages, the probes and the scrape, even for an address that has spent its budget', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1' } });
    await request(site.server).get('/api/products').expect(200);
    await request(site.server).get('/api/products').expect(429);
    await request(site.server).get('/products').expect(200);
    for (let round = 0; round < 5; round += 1) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const response = await request(site.server).get(path).expect(200);
        expect(response.headers.ratelimit).toBeUndefined();
      }
    }
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '0' } });
    for (let count = 0; count < 20; count += 1) await request(site.server).get('/api/products').expect(200);
  });

  it('tells clients apart by X-Forwarded-For only with TRUST_PROXY: without it, a forged one gives no fresh budget', async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'true' } });
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.1').expect(200);
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.2').expect(200);
    await request(site.server).get('/api/products').set('X-Forwarded-For', '203.0.113.2').expect(429);
    await site.close();

    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '3' } });
    const statuses: number[] = [];
    for (let index = 1; index <= 6; index += 1) {
      const response = await request(site.server).get('/api/products').set('X-Forwarded-For', `198.51.100.${index}`);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('never meets a visitor browsing quickly at the default limit', async () => {
    site = await startTestSite();
    expect(site.config.rateLimitPerMinute).toBe(600);
    const ids = FIXTURE_PRODUCTS.map((product) => product.id);
    // A minute of brisk browsing with the browser's cache off: the home page and the products page with every
    // card's image, six product pages with theirs, and back to the list (its 20 images again) twice.
    const paths = [
      '/api/products',
      ...ids.map((id) => `/api/products/${id}/image`),
      ...ids.slice(0, 6).flatMap((id) => [`/api/products/${id}`, `/api/products/${id}/image`]),
      ...[1, 2].flatMap(() => ['/api/products', ...ids.map((id) => `/api/products/${id}/image`)]),
    ];
    expect(paths.length).toBeGreaterThanOrEqual(30 + 6);
    const responses = await Promise.all(paths.map((path) => request(site!.server).get(path)));
    expect(responses.filter((response) => response.status !== 200).map((response) => response.status)).toEqual([]);
  });
});
