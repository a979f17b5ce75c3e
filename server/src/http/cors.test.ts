import { MESSAGES } from '@catalogue/shared/messages';
import request, { type Response } from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { EXPOSED_HEADERS } from './cors.js';

let site: TestSite;

afterEach(async () => {
  await site.close();
});

async function start(config: Record<string, string> = {}) {
  site = await startTestSite({ config });
  return site.server;
}

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.com';

/** Every header named `name` as sent (a header sent twice would show twice). */
function sent(response: Response, name: string): string[] {
  const raw = (response as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
  const values: string[] = [];
  for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === name) values.push(raw[index + 1]!);
  return values;
}

/** The `Vary` values of an answer, one header expected. */
function varyOf(response: Response): string {
  const values = sent(response, 'vary');
  expect(values).toHaveLength(1);
  return values[0]!;
}

/** One request of each kind of /api answer: a list, a product, a view, an image, and the errors. */
const API_ANSWERS: [string, (server: TestSite['server'], origin: string | undefined) => request.Test][] = [
  ['200 list', (server, origin) => withOrigin(request(server).get('/api/products'), origin).expect(200)],
  ['200 view', (server, origin) => withOrigin(request(server).get('/api/products/category/jewelery?limit=1'), origin).expect(200)],
  ['200 image', (server, origin) => withOrigin(request(server).get('/api/products/2/image'), origin).expect(200)],
  ['304', (server, origin) => withOrigin(request(server).get('/api/products/1').set('If-None-Match', '*'), origin).expect(304)],
  ['400', (server, origin) => withOrigin(request(server).get('/api/products?limit=0'), origin).expect(400)],
  ['404 JSON', (server, origin) => withOrigin(request(server).get('/api/nope'), origin).expect(404, { error: MESSAGES.notFound })],
  ['405', (server, origin) => withOrigin(request(server).delete('/api/products/1'), origin).expect(405)],
  ['414', (server, origin) => withOrigin(request(server).get(`/api/products/category/${'x'.repeat(3000)}`), origin).expect(414)],
];

function withOrigin(test: request.Test, origin: string | undefined): request.Test {
  return origin === undefined ? test : test.set('Origin', origin);
}

describe('CORS_ORIGINS=* (the default)', () => {
  it.each(API_ANSWERS)(
    'lets any origin read a %s, exposing the caching and rate-limit headers, never with credentials',
    async (_kind, send) => {
      const server = await start();
      for (const origin of [APP, 'null', undefined]) {
        const response = await send(server, origin);
        expect(sent(response, 'access-control-allow-origin')).toEqual(['*']);
        expect(response.headers['access-control-expose-headers']).toBe(EXPOSED_HEADERS);
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        // The same answer for every origin: nothing to vary on.
        expect(response.headers.vary ?? '').not.toMatch(/origin/i);
        // A page anywhere may embed it (a product image in a plain <img>): the resource policy is opened, once.
        expect(sent(response, 'cross-origin-resource-policy')).toEqual(['cross-origin']);
      }
    },
  );

  it('names every header a script may need to read', () => {
    expect(EXPOSED_HEADERS.split(', ')).toEqual(['ETag', 'Age', 'X-Cache', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After']);
  });

  it.each(['/', '/products', '/productdetails/1', '/metrics', '/healthz', '/readyz', '/sitemap.xml', '/logo.svg'])(
    'sends no CORS header on %s, which is not the API',
    async (path) => {
      const server = await start();
      const response = await request(server).get(path).set('Origin', APP);
      expect(response.status).toBeLessThan(500);
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    },
  );

  it('answers 429 with CORS headers, so a script on another origin can read Retry-After', async () => {
    const server = await start({ RATE_LIMIT_PER_MINUTE: '1' });
    await request(server).get('/api/products').set('Origin', APP).expect(200);
    const limited = await request(server).get('/api/products').set('Origin', APP).expect(429);
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(limited.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('CORS_ORIGINS as a list', () => {
  const LIST = { CORS_ORIGINS: `${APP}, http://localhost:5173` };

  it.each(API_ANSWERS)('echoes a listed origin on a %s, with Origin merged into the one Vary header', async (_kind, send) => {
    const server = await start(LIST);
    for (const origin of [APP, 'http://localhost:5173']) {
      const response = await send(server, origin);
      expect(sent(response, 'access-control-allow-origin')).toEqual([origin]);
      expect(response.headers['access-control-expose-headers']).toBe(EXPOSED_HEADERS);
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(varyOf(response).split(', ')).toContain('Origin');
      // Listed origins ask with CORS (fetch, <img crossorigin>), which the site's same-origin policy does not stop.
      expect(sent(response, 'cross-origin-resource-policy')).toEqual(['same-origin']);
    }
  });

  it.each(API_ANSWERS)('gives an origin not listed, or no Origin, no Allow-Origin on a %s, and still Vary: Origin', async (_kind, send) => {
    const server = await start(LIST);
    for (const origin of [OTHER, `${APP}.evil.example`, 'https://APP.example.com', 'null', undefined]) {
      const response = await send(server, origin);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-expose-headers']).toBeUndefined();
      expect(varyOf(response).split(', ')).toContain('Origin');
    }
  });

  it('varies a cached answer on both the encoding and the origin', async () => {
    const server = await start(LIST);
    const response = await request(server).get('/api/products').set('Origin', APP).expect(200);
    expect(varyOf(response)).toBe('Accept-Encoding, Origin');
  });
});

describe('OPTIONS on /api', () => {
  it.each(['/api/products', '/api/products/3', '/api/products/3/image?w=320', '/api/products/category/jewelery', '/api/nope'])(
    'answers the preflight of %s with 204 and what a GET may carry',
    async (path) => {
      const server = await start();
      const response = await request(server)
        .options(path)
        .set('Origin', APP)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'if-none-match,x-request-id')
        .expect(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(response.headers['access-control-allow-headers']).toBe('if-none-match,x-request-id');
      expect(response.headers['access-control-max-age']).toBe('7200');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.text ?? '').toBe('');
      expect(site.upstream.requestCount()).toBe(0);
    },
  );

  it('never counts a preflight against the rate limit', async () => {
    const server = await start({ RATE_LIMIT_PER_MINUTE: '1' });
    for (let count = 0; count < 5; count += 1) {
      const preflight = await request(server)
        .options('/api/products')
        .set('Origin', APP)
        .set('Access-Control-Request-Method', 'GET')
        .expect(204);
      expect(preflight.headers.ratelimit).toBeUndefined();
    }
    await request(server).get('/api/products').set('Origin', APP).expect(200);
    await request(server).get('/api/products').set('Origin', APP).expect(429);
  });

  it('leaves out Allow-Headers when the requested ones are not a list of header names', async () => {
    const server = await start();
    for (const requested of ['a b', 'x-a;x-b', 'x-a,,x-b', '"x"']) {
      const response = await request(server)
        .options('/api/products')
        .set('Origin', APP)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', requested)
        .expect(204);
      expect(response.headers['access-control-allow-headers']).toBeUndefined();
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers a preflight from an origin not listed without Allow-Origin, so the browser stops there', async () => {
    const server = await start({ CORS_ORIGINS: APP });
    const refused = await request(server)
      .options('/api/products')
      .set('Origin', OTHER)
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-methods']).toBeUndefined();
    expect(varyOf(refused)).toContain('Origin');
    const allowed = await request(server)
      .options('/api/products')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(APP);
    expect(allowed.headers['access-control-allow-methods']).toBe('GET, HEAD');
  });

  it('answers a plain OPTIONS (no preflight) with 204 and the methods allowed', async () => {
    const server = await start();
    const response = await request(server).options('/api/products/1').expect(204);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('lists OPTIONS in the Allow of a 405', async () => {
    const server = await start();
    const response = await request(server).put('/api/products/1').set('Origin', APP).expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });
});
