import { defineConfig, devices } from '@playwright/test';

/**
 * Browser end-to-end tests: Debian's Chromium against the BUILT server (`server/dist`) and client (`client/dist`),
 * each started by the fixtures in e2e/fixtures. Run them with `npm run test:e2e` (builds first).
 *
 * Tags pick the widths a test runs at, so width-independent checks are not repeated:
 *   `@mobile` → 375×800 only, `@desktop` → 1280×800 only, `@both` → both, untagged → desktop only.
 */
const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // Two cores: one worker per core. Every worker owns its upstream double and server.
  workers: 2,
  fullyParallel: true,
  forbidOnly: CI,
  // Flaky tests are fixed, not retried; CI gets one retry only so a machine hiccup reads as "flaky" in the list.
  retries: CI ? 1 : 0,
  reporter: [['list']],
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: {
    // Each test's baseURL is its own server's (see e2e/fixtures/test.ts).
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        // Chromium's own background connections (updates, sync, field trials) would leave this closed network.
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'mobile',
      grep: /@mobile|@both/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 375, height: 800 },
        hasTouch: true,
        isMobile: true,
        deviceScaleFactor: 1,
      },
    },
    {
      name: 'desktop',
      grepInvert: /@mobile/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
    },
  ],
});
