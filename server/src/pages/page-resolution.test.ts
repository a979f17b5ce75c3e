import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as pageRoutes from '@catalogue/shared/page-routes';
import { resolvePage } from '@catalogue/shared/page-routes';
import { startTestSite, type TestSite } from '../testing/test-site.js';

// The real resolvePage, watched: a page Express answers reads its URL once; one the response cache answers is looked
// up by its spelling alone (page-route.ts's cacheablePageEntry) and never resolved.
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
    ['/productdetails/3', 200, true],
    ['/products?category=jewelery&q=gold', 200, true],
    ['/', 200, true],
    ['/productdetails/007', 200, false],
    ['/products?utm_source=x', 200, false],
    ['/productdetails/abc', 400, false],
    ['/products?category=furniture', 404, false],
    ['/no/such/page', 404, false],
  ])('%s is resolved once when rendered, and not at all when answered from the cache', async (url, status, kept) => {
    for (const attempt of ['first', 'again']) {
      vi.mocked(resolvePage).mockClear();
      const answer = await fetch(`${site.url}${url}`);
      expect(answer.status, attempt).toBe(status);
      await answer.arrayBuffer();
      const fromCache = kept && attempt === 'again';
      expect(vi.mocked(resolvePage), `${url} (${attempt})`).toHaveBeenCalledTimes(fromCache ? 0 : 1);
    }
  });
});
