// `npm run test:e2e`: the browser end-to-end tests against the BUILT server and client, in Debian's Chromium.
// Without a browser the run is skipped (a local machine) or fails (CI=true), always naming the install command.
// Extra arguments go to `playwright test`, e.g. `npm run test:e2e -- e2e/theme.spec.ts --project=desktop`.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const INSTALL = 'apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium or Chrome binary)';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (!isExecutable(chromium)) {
  if (process.env.CI) {
    console.error(`\nBrowser tests FAILED: no Chromium at ${chromium} (CI is set, so this is an error).`);
    console.error(`Install it with: ${INSTALL}\n`);
    process.exit(1);
  }
  console.warn(`\nBrowser tests SKIPPED: no Chromium at ${chromium}.`);
  console.warn(`Install it with: ${INSTALL}\n`);
  process.exit(0);
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) {
    console.error(`Could not run ${command}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

// The tests drive what `npm start` serves: the compiled server and the Vite build of the client.
const buildStatus = run('npm', ['run', 'build']);
if (buildStatus !== 0) {
  console.error('\nBrowser tests not run: `npm run build` failed.');
  process.exit(buildStatus);
}

process.exit(run('npx', ['--no-install', 'playwright', 'test', ...process.argv.slice(2)], { ...process.env, CHROMIUM_PATH: chromium }));
