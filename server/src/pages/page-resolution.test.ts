import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as pageRoutes from '@catalogue/shared/page-routes';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { startTestSite, type TestSite } from '../testing/test-site.js';

// The real readPageUrl, watched: each path a page request takes reads its URL once. A page the response cache
// answers is read there alone; one it leaves to Express (a miss, another spelling, an error page) is read by each,
// and a path no cached page's pattern names (`/no/such/page`) by Express alone.
vi.mock('@catalogue/shared/page-routes', async (importOriginal) => {
  const original = await importOriginal<typeof pageRoutes>();
  return { ...original, readPageUrl: vi.fn(original.readPageUrl) };
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
    ['/productdetails/3', 200, 'kept'],
    ['/products?category=jewelery&q=gold', 200, 'kept'],
    ['/', 200, 'kept'],
    ['/productdetails/007', 200, 'rendered'],
    ['/products?utm_source=x', 200, 'rendered'],
    ['/productdetails/abc', 400, 'rendered'],
    ['/products?category=furniture', 404, 'rendered'],
    ['/no/such/page', 404, 'Express only'],
  ] as const)('%s answers %i, its URL read once by each path it takes', async (url, status, kind) => {
    for (const attempt of ['first', 'again']) {
      vi.mocked(readPageUrl).mockClear();
      const answer = await fetch(`${site.url}${url}`);
      expect(answer.status, attempt).toBe(status);
      await answer.arrayBuffer();
      const reads = kind === 'Express only' || (kind === 'kept' && attempt === 'again') ? 1 : 2;
      expect(vi.mocked(readPageUrl), `${url} (${attempt})`).toHaveBeenCalledTimes(reads);
    }
  });
});
