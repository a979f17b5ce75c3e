import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { startTestSite, type TestSite } from '@catalogue/server/testing/test-site';

export type { TestSite };

/**
 * The real server (startTestSite: production's buildServer) in front of the one upstream double, for the
 * component tests, which render the app themselves and ask the server only its API: no built client is served.
 * Its cache is off, so every request reaches the double as the test has set it up (a failure is not hidden
 * behind an earlier success), and so is the rate limit: a test file is one busy client.
 */
export function startClientTestSite(): Promise<TestSite> {
  return startTestSite({
    withoutClient: true,
    config: { CACHE_TTL_SECONDS: '0', STALE_MAX_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '0' },
  });
}

/** Between tests: the fixture catalogue again, answered normally, and no requests counted. */
export async function resetTestSite(site: TestSite): Promise<void> {
  site.upstream.clearOverrides();
  site.upstream.setProducts(FIXTURE_PRODUCTS);
  await site.upstream.setMode('normal');
  site.upstream.resetCounts();
  site.apiRequests.length = 0;
}
