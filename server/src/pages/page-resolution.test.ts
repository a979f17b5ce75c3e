import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as pageRoutes from '@catalogue/shared/page-routes';
import { resolvePage } from '@catalogue/shared/page-routes';
import { startTestSite, type TestSite } from '../testing/test-site.js';

// The real resolvePage, watched: every page request, through the response cache or Express, hit or miss, reads its URL
// once (page-route.ts's cacheablePageRoute resolves only what the cache looks up; pages.ts hands that route on).
vi.mock('@catalogue/shared/page-routes', async (importOriginal) => {
  const original = await importOriginal<typeof pageRoutes>();
  return { ...original, resolvePage: vi.fn(original.resolvePage) };
});

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site.close();
});

describe('a page request', () => {
  it.each([
    ['/productdetails/3', 200],
    ['/products?category=jewelery&q=gold', 200],
    ['/', 200],
    ['/productdetails/007', 200],
    ['/products?utm_source=x', 200],
    ['/productdetails/abc', 400],
    ['/products?category=furniture', 404],
    ['/no/such/page', 404],
  ])('%s is resolved once when rendered, and once when answered from the cache', async (url, status) => {
    for (const attempt of ['first', 'again']) {
      vi.mocked(resolvePage).mockClear();
      const answer = await fetch(`${site.url}${url}`);
      expect(answer.status, attempt).toBe(status);
      await answer.arrayBuffer();
      expect(vi.mocked(resolvePage), `${url} (${attempt})`).toHaveBeenCalledTimes(1);
    }
  });
});
