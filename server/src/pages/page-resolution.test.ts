import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as pageRoutes from '@catalogue/shared/page-routes';
import { readPageUrl } from '@catalogue/shared/page-routes';
import { startTestSite, type TestSite } from '../testing/test-site.js';

// The real readPageUrl, watched: Express reads a page's URL once; a page the response cache answers (one kept from
// Express's answer for that very URL) is not read at all.
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
  ] as const)('%s answers %i, its URL read once by Express, and not at all once kept', async (url, status, kind) => {
    for (const attempt of ['first', 'again']) {
      vi.mocked(readPageUrl).mockClear();
      const answer = await fetch(`${site.url}${url}`);
      expect(answer.status, attempt).toBe(status);
      await answer.arrayBuffer();
      const reads = kind === 'kept' && attempt === 'again' ? 0 : 1;
      expect(vi.mocked(readPageUrl), `${url} (${attempt})`).toHaveBeenCalledTimes(reads);
    }
  });
});
