// `npm start`: build whatever is missing or older than its sources, then run the server in this process
// (so SIGTERM reaches the server's own shutdown handling directly).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

await import(new URL('../server/dist/index.js', import.meta.url).href);
