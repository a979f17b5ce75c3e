// `npm run lint:openapi` (part of `npm run lint`): the API's OpenAPI document, exactly as the server serves it at
// /api/openapi.json, linted by Redocly CLI (redocly.yaml: `recommended`) and Spectral (.spectral.yaml:
// `spectral:oas`). Any error or warning from either fails; a rule turned off says why in its config.
//
// The document is loaded from the server's TypeScript source through Vite's module runner (as the tests load it,
// no build needed), written to a temporary file, and linted there. Neither linter goes on the network: Redocly's
// telemetry is off in redocly.yaml and its update check is turned off below; Spectral's ruleset is built in.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

const { module } = await runnerImport(join(ROOT, 'server/src/openapi/openapi-document.ts'), {
  root: ROOT,
  logLevel: 'error',
  // Our workspaces from their TypeScript sources (the `source` export condition), as the tests read them.
  environments: { inline: { resolve: { noExternal: [/^@catalogue\//], conditions: ['source'] } } },
});

const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
let failed = false;
try {
  // What the server sends: JSON.stringify of the same object (openapi-contract.test.ts holds the two equal).
  writeFileSync(file, `${JSON.stringify(module.OPENAPI_DOCUMENT, null, 2)}\n`);
  failed = !redocly(file) | !spectral(file);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** Redocly fails only on errors by itself: its JSON report's totals count the warnings too. */
function redocly(path) {
  const env = { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const args = ['lint', path, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'];
  const run = spawnSync(join(BIN, 'redocly'), args, { env, encoding: 'utf8' });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    console.error(`Redocly did not report (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    return false;
  }
  const { errors, warnings } = report.totals;
  for (const problem of report.problems) {
    const where = problem.location?.map((location) => location.pointer).join(', ') ?? '';
    console.log(`  ${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`);
  }
  console.log(`Redocly (recommended): ${errors} errors, ${warnings} warnings`);
  return errors === 0 && warnings === 0;
}

function spectral(path) {
  const args = ['lint', path, '--ruleset', join(ROOT, '.spectral.yaml'), '--fail-severity', 'hint', '--display-only-failures'];
  const run = spawnSync(join(BIN, 'spectral'), args, { encoding: 'utf8' });
  process.stdout.write(run.stdout.trim() === '' ? '' : `${run.stdout.trim()}\n`);
  process.stderr.write(run.stderr);
  console.log(`Spectral (spectral:oas): ${run.status === 0 ? 'no problems' : 'problems above'}`);
  return run.status === 0;
}
