// The site behind Debian's nginx running deploy/nginx/nginx.conf (docs/scaling.md): nginx's shared
// cache must hand each client the answer the app would have given it, for what the app's answers vary on (the
// image format by Accept, the CORS headers by Origin), without keeping needless copies.
import { request } from 'node:http';
import { findNginx, NGINX_INSTALL_HINT, type NginxServer, startNginxServer } from '@catalogue/testing/nginx-server';
import { startTestSite, type TestSite } from '@catalogue/server/testing/test-site';
import { afterEach, describe, expect, it } from 'vitest';

// Without nginx these tests cannot mean anything: skipped with the install command, except in CI, where a missing
// nginx is a failure (startNginxServer throws, naming the command).
const nginxMissing = findNginx() === undefined && !process.env.CI;
if (nginxMissing) console.warn(`Skipping the tests behind nginx: nginx is not installed (${NGINX_INSTALL_HINT})`);

const A = 'https://a.example';
const B = 'https://b.example';
// What browsers send for an <img>: Chromium, Firefox, and one that names neither modern format.
const CHROMIUM_IMAGES = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const FIREFOX_IMAGES = 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
const WEBP_ONLY = 'image/webp,image/*,*/*;q=0.8';
const JPEG_ONLY = 'image/jpeg';

let site: TestSite | undefined;
let nginx: NginxServer | undefined;

afterEach(async () => {
  await nginx?.stop();
  await site?.close();
  nginx = undefined;
  site = undefined;
});

/** One site over the upstream double with photos, and nginx in front of it. */
async function startBehindNginx(corsOrigins?: string): Promise<{ site: TestSite; nginx: NginxServer }> {
  site = await startTestSite({
    upstream: { photos: true },
    config: { TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '0', ...(corsOrigins && { CORS_ORIGINS: corsOrigins }) },
  });
  nginx = await startNginxServer({ replicas: { ports: [Number(new URL(site.url).port)] }, corsOrigins });
  return { site, nginx };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http rather than fetch, which would add headers of its own: these requests carry exactly what is given. */
function send(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from ${url} within 10 s`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The format the bytes are in, read from their signature rather than from Content-Type. */
function formatOf(body: Buffer): string {
  if (body.subarray(4, 12).toString('latin1') === 'ftypavif') return 'avif';
  if (body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (body[0] === 0xff && body[1] === 0xd8) return 'jpeg';
  return 'unknown';
}

function upstreamHits(of: TestSite, path: string): number {
  return of.apiRequests.filter((requested) => requested === path).length;
}

describe.skipIf(nginxMissing)('behind nginx', () => {
  describe('image variants, which vary on Accept', () => {
    it('answers each client in the format it asked for, one cached copy per format', async () => {
      const { site, nginx } = await startBehindNginx();
      const url = `${nginx.url}/api/products/3/image?w=320`;
      const asked = [
        { accept: CHROMIUM_IMAGES, format: 'avif', cache: 'MISS' },
        { accept: CHROMIUM_IMAGES, format: 'avif', cache: 'HIT' },
        { accept: WEBP_ONLY, format: 'webp', cache: 'MISS' },
        { accept: WEBP_ONLY, format: 'webp', cache: 'HIT' },
        { accept: JPEG_ONLY, format: 'jpeg', cache: 'MISS' },
        { accept: JPEG_ONLY, format: 'jpeg', cache: 'HIT' },
        // Other spellings of the same choice share its copy.
        { accept: FIREFOX_IMAGES, format: 'avif', cache: 'HIT' },
        { accept: 'image/avif;q=0, image/webp', format: 'webp', cache: 'HIT' },
        { accept: '*/*', format: 'jpeg', cache: 'HIT' },
      ];
      for (const { accept, format, cache } of asked) {
        const answer = await send(url, { accept });
        expect({ accept, status: answer.status, format: formatOf(answer.body), type: answer.headers['content-type'] }).toEqual({
          accept,
          status: 200,
          format,
          type: `image/${format}`,
        });
        expect({ accept, cache: answer.headers['x-proxy-cache'] }).toEqual({ accept, cache });
        expect(answer.headers.vary).toBe('Accept');
      }
      expect(upstreamHits(site, '/api/products/3/image')).toBe(3);
    });

    it("answers an Accept nginx reads differently from the app as nginx's key says, spoiling no copy", async () => {
      const { nginx } = await startBehindNginx();
      const url = `${nginx.url}/api/products/6/image?w=240`;
      // The app counts a quality that is not a number as 0 (refused); nginx's map reads image/avif as named. What
      // is cached under "AVIF" must still be AVIF for the browsers that come next.
      const odd = await send(url, { accept: 'image/avif;q=high, image/webp' });
      expect([odd.headers['x-proxy-cache'], formatOf(odd.body)]).toEqual(['MISS', 'avif']);
      const chromium = await send(url, { accept: CHROMIUM_IMAGES });
      expect([chromium.headers['x-proxy-cache'], formatOf(chromium.body)]).toEqual(['HIT', 'avif']);
    });

    it('keeps one copy of the list and of the full-size photo whatever Accept says', async () => {
      const { site, nginx } = await startBehindNginx();
      for (const path of ['/api/products', '/api/products/4/image']) {
        const caches = [];
        for (const accept of [CHROMIUM_IMAGES, WEBP_ONLY, JPEG_ONLY, 'application/json']) {
          const answer = await send(`${nginx.url}${path}`, { accept });
          expect(answer.status).toBe(200);
          caches.push(answer.headers['x-proxy-cache']);
        }
        expect({ path, caches }).toEqual({ path, caches: ['MISS', 'HIT', 'HIT', 'HIT'] });
        expect(upstreamHits(site, path)).toBe(1);
      }
    });
  });

  describe('CORS_ORIGINS listing origins, which makes /api vary on Origin', () => {
    const orders = [
      [A, B, undefined],
      [A, undefined, B],
      [B, A, undefined],
      [B, undefined, A],
      [undefined, A, B],
      [undefined, B, A],
    ];

    it('gives each listed origin its own Allow-Origin and a request without Origin none, in every order', async () => {
      const { site, nginx } = await startBehindNginx(`${A},${B}`);
      for (const [index, order] of orders.entries()) {
        // A path of its own for each order, so each starts with nothing cached.
        const path = `/api/products/${index + 1}`;
        for (const round of ['MISS', 'HIT']) {
          for (const origin of order) {
            const answer = await send(`${nginx.url}${path}`, origin === undefined ? {} : { origin });
            expect({ path, origin, status: answer.status, allowOrigin: answer.headers['access-control-allow-origin'] }).toEqual({
              path,
              origin,
              status: 200,
              allowOrigin: origin,
            });
            expect({ path, origin, cache: answer.headers['x-proxy-cache'] }).toEqual({ path, origin, cache: round });
            expect(answer.headers.vary).toBe('Accept-Encoding, Origin');
          }
        }
        expect(upstreamHits(site, path)).toBe(3);
      }
    });

    it('answers an unlisted origin from the copy without Origin, and a mis-cased origin cannot spoil a listed one', async () => {
      const { site, nginx } = await startBehindNginx(`${A},${B}`);
      const path = '/api/products/categories';
      // A non-browser client may send any spelling: nginx matches origins whatever their case, so this one must
      // not leave a copy without Allow-Origin where A's is looked for.
      const shouted = await send(`${nginx.url}${path}`, { origin: 'HTTPS://A.EXAMPLE' });
      expect(shouted.headers['x-proxy-cache']).toBe('MISS');
      const fromA = await send(`${nginx.url}${path}`, { origin: A });
      expect([fromA.headers['x-proxy-cache'], fromA.headers['access-control-allow-origin']]).toEqual(['HIT', A]);

      const unlisted = await send(`${nginx.url}${path}`, { origin: 'https://c.example' });
      expect([unlisted.status, unlisted.headers['x-proxy-cache'], unlisted.headers['access-control-allow-origin']]).toEqual([
        200,
        'MISS',
        undefined,
      ]);
      const without = await send(`${nginx.url}${path}`);
      expect([without.headers['x-proxy-cache'], without.headers['access-control-allow-origin']]).toEqual(['HIT', undefined]);
      expect(upstreamHits(site, path)).toBe(2);
    });

    it("passes a preflight to the app, which answers it 204 with the origin's CORS headers, never cached", async () => {
      const { site, nginx } = await startBehindNginx(`${A},${B}`);
      for (const origin of [A, A, B]) {
        const answer = await send(
          `${nginx.url}/api/products`,
          { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-request-id' },
          'OPTIONS',
        );
        expect(answer.status).toBe(204);
        expect(answer.headers).toMatchObject({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, HEAD',
          'access-control-allow-headers': 'x-request-id',
          'cache-control': 'no-store',
        });
        expect(answer.headers['x-proxy-cache']).not.toBe('HIT');
      }
      expect(upstreamHits(site, '/api/products')).toBe(3);
    });
  });

  describe('CORS_ORIGINS=* (the default), where no answer varies on Origin', () => {
    it('answers every origin, and a request without one, from one cached copy', async () => {
      const { site, nginx } = await startBehindNginx();
      const path = '/api/products/5';
      for (const origin of [A, B, undefined, 'https://c.example', 'null']) {
        const answer = await send(`${nginx.url}${path}`, origin === undefined ? {} : { origin });
        expect({ origin, status: answer.status, allowOrigin: answer.headers['access-control-allow-origin'] }).toEqual({
          origin,
          status: 200,
          allowOrigin: '*',
        });
      }
      expect(upstreamHits(site, path)).toBe(1);
    });

    it('passes a preflight to the app: 204, any origin allowed', async () => {
      const { nginx } = await startBehindNginx();
      const answer = await send(`${nginx.url}/api/products`, { origin: B, 'access-control-request-method': 'GET' }, 'OPTIONS');
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['access-control-allow-methods']).toBe('GET, HEAD');
    });
  });
});
