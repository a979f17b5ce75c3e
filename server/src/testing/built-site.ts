import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENTRY } from '../pages/page-renderer.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Vitest's global set-up for the server's tests (vitest.config.ts): the site built as production builds it, once,
 * before any test file runs, for the tests that run `server/dist/index.js` as a process of its own. Here rather than
 * in each file's `beforeAll`, so that test files running side by side never build into the same folders at once.
 */
export default function buildSite(): void {
  // Incremental: only what changed since the last build is compiled, so no test runs stale server code.
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b', 'shared', 'testing', 'server'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // Pages need the client's build, or they answer 503. Built when missing only (`npm run build` or the browser
  // suite rebuilds it): Vitest sets NODE_ENV=test, under which Vite would emit React's development JSX runtime,
  // which the production server cannot load, hence production here.
  if (!existsSync(join(ROOT, 'client', 'dist', SERVER_ENTRY))) {
    execFileSync('npm', ['run', 'build', '--workspace', 'client'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
