import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Our workspaces (@catalogue/shared, @catalogue/testing) export their TypeScript sources under the `source`
// condition: tests run them as they are, so `npm test` needs no build first. Node itself, without the
// condition, loads the built `dist` (docs/decisions/workspace-resolution.md).
// (Vitest's own conditions for Node, without Vite's `module`, which would load dependencies' ESM builds that
// Node cannot run as they are.)
const nodeProject = { ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } } };
// Server and test-double tests start real servers, resize real photos and spawn processes: on a busy two-core
// machine one can take longer than Vitest's default 5 s without anything being wrong. The limit is there to catch
// a hang, never to judge speed (no test asserts wall-clock time).
const SLOW_WORK_TIMEOUT_MS = 30_000;
// Every answer of a test site checked against the OpenAPI document: one it does not promise fails the test that
// met it (server/src/testing/answer-watch.ts, docs/testing.md).
const CHECK_ANSWERS = 'server/src/testing/check-answers-setup.ts';

export default defineConfig({
  test: {
    // Two test files at a time, as Playwright's two workers. Vitest's default leaves a core free, which on a two-core
    // machine is one file at a time; ours mostly wait on the servers and processes they start, so two overlap that
    // waiting (the unit tests: 24 → 15 minutes on a slow two-core machine, 2026-11-29).
    maxWorkers: 2,
    projects: [
      { ...nodeProject, test: { name: 'shared', environment: 'node', include: ['shared/src/**/*.test.ts'] } },
      {
        ...nodeProject,
        test: { name: 'testing', environment: 'node', include: ['testing/src/**/*.test.ts'], testTimeout: SLOW_WORK_TIMEOUT_MS },
      },
      {
        ...nodeProject,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/src/**/*.test.ts'],
          globalSetup: ['server/src/testing/built-site.ts'],
          setupFiles: [CHECK_ANSWERS],
          testTimeout: SLOW_WORK_TIMEOUT_MS,
          hookTimeout: SLOW_WORK_TIMEOUT_MS,
        },
      },
      {
        ...nodeProject,
        // The deployment's own tests: the site behind Debian's nginx, and the Kubernetes manifests rendered and checked.
        // The built site too, for the tests that scrape a running server (deploy/prometheus/).
        test: {
          name: 'deploy',
          environment: 'node',
          include: ['deploy/**/*.test.ts'],
          globalSetup: ['server/src/testing/built-site.ts'],
          setupFiles: [CHECK_ANSWERS],
          testTimeout: SLOW_WORK_TIMEOUT_MS,
        },
      },
      {
        plugins: [react()],
        resolve: { conditions: ['source', ...defaultClientConditions] },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/src/**/*.test.{ts,tsx}'],
          setupFiles: ['client/src/testing/setup-tests.ts', CHECK_ANSWERS],
        },
      },
    ],
  },
});
