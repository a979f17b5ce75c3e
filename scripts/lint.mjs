// `npm run lint`: ESLint (`lint:eslint`) and, at the same time, the checks that read no types (`lint:others`:
// dependency-cruiser, Prettier, the OpenAPI document, citations, the settings table, the Node version). ESLint's typed
// rules keep one core busy for most of the run and the others fit on the second (docs/decisions/lint-programs.md).
// Each group's output is printed whole when it ends, so the two never interleave; the run fails if either does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run <script>`, its output kept; resolves to its exit status once it has printed. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`could not run npm run ${script}: ${error.message}\n`)));
    child.on('close', (code, signal) => {
      const status = code ?? 1;
      process.stdout.write(`\n== npm run ${script}: ${status === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const statuses = await Promise.all(['lint:eslint', 'lint:others'].map(run));
process.exit(statuses.every((status) => status === 0) ? 0 : 1);
