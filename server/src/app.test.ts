import { MESSAGES } from '@catalogue/shared/messages';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createProductsSlice } from './products/products-slice.js';
import { httpCachingPolicy } from './http/answer.js';
import { cachedRouteMount } from './http/cached-route.js';
import { createApp } from './app.js';
import type { CachedCatalogue } from './catalogue/caches/cached-catalogue.js';
import { loadConfig } from './config.js';
import { createCorsPolicy } from './http/cors.js';
import { createMetrics } from './http/metrics.js';
import { createCapturingLogger } from './testing/capturing-logger.js';
import { startTestSite, type TestSite } from './testing/test-site.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('createApp', () => {
  it.each(['/api', '/api/', '/api/nope', '/api/products/1/extra', '/api/categories'])('answers %s with a JSON 404', async (path) => {
    site = await startTestSite();
    await request(site.server).get(path).expect(404, { error: MESSAGES.notFound });
    await request(site.server).delete(path).expect(404, { error: MESSAGES.notFound });
    expect(site.upstream.requestCount()).toBe(0);
  });

  it('answers other methods on page paths with a JSON 404', async () => {
    site = await startTestSite();
    await request(site.server).post('/products').expect(404, { error: MESSAGES.notFound });
  });

  it('answers an unexpected failure with a bare 500, never a stack or a path', async () => {
    const failing: CachedCatalogue = {
      sourceName: 'broken',
      withList: () => Promise.reject(new Error('boom in /srv/app/secret.ts')),
      getProduct: () => Promise.reject(new TypeError('cannot read x of undefined')),
      readiness: () => Promise.reject(new Error('boom in /srv/app/secret.ts')),
      sharedCacheState: () => 'off',
      settled: () => Promise.resolve(),
      close: () => undefined,
    };
    const { logger, records } = createCapturingLogger('error');
    const config = loadConfig({});
    const app = createApp({
      config,
      logger,
      metrics: createMetrics(),
      rateLimit: null,
      cors: createCorsPolicy(config),
      slices: [
        createProductsSlice({
          catalogue: failing,
          mountCached: cachedRouteMount({ caching: httpCachingPolicy(config), responses: { keep: () => undefined }, logger }),
        }),
      ],
    });
    for (const path of ['/api/products', '/api/products/1', '/api/products/search?q=a']) {
      const response = await request(app).get(path).expect(500);
      expect(response.body).toEqual({ error: MESSAGES.internalError });
      expect(response.text).not.toMatch(/secret|\.ts|at |undefined/);
    }
    expect(records.some((record) => record.msg === 'Unexpected error')).toBe(true);
  });
});
