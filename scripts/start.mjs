// `npm start`: build whatever is missing or older than its sources, then run the server with the memory settings
// the container runs with (scripts/runtime-settings.mjs). They take effect only when a process starts, so the
// server runs as a child; SIGTERM and SIGINT are passed on to its own shutdown handling, and its exit is ours (a
// server killed by a signal, 128 + the signal's number, as a shell reports it: SIGTERM 143, SIGKILL 137).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withRuntimeSettings } from './runtime-settings.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(root, ...parts);

const outputs = [at('shared/dist'), at('server/dist/index.js'), at('client/dist/index.html')];
const sources = [at('shared/src'), at('server/src'), at('client/src'), at('client/index.html'), at('client/public')];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const builtAt = Math.min(...outputs.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
if (builtAt === 0 || Math.max(...sources.map(newestChange)) > builtAt) {
  console.log('Building the site before starting it…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [at('server/dist/index.js')], { stdio: 'inherit', env: withRuntimeSettings(process.env) });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.once('exit', (code, signal) => process.exit(code ?? 128 + constants.signals[signal]));
