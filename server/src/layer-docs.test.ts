import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = dirname(fileURLToPath(import.meta.url));

/** The repository's own files, read as a newcomer reads them. */
const readRepoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * What a folder's production modules (its subfolders' too) import of the rest of server/src, as the docs name it:
 * a top-level module by its file (`config.ts`), anything in a folder by the folder (`bodies/`).
 */
function serverImportsOf(folder: string): Set<string> {
  const imported = new Set<string>();
  for (const file of readdirSync(join(SERVER_SRC, folder), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const path = join(SERVER_SRC, folder, file);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)'/gms)) {
      const target = relative(SERVER_SRC, join(dirname(path), specifier!)).replace(/\.js$/, '.ts');
      const [first, ...rest] = target.split('/');
      if (first !== folder) imported.add(rest.length === 0 ? first! : `${first}/`);
    }
  }
  return imported;
}

/** The sentence of docs/architecture.md's import rules that starts with `opening`, up to its semicolon or full stop. */
function claim(opening: string): string {
  const text = readRepoFile('docs/architecture.md').replace(/\s+/g, ' ');
  const start = text.indexOf(opening);
  expect(start, `"${opening}" not found in docs/architecture.md`).toBeGreaterThan(-1);
  return text.slice(start, text.indexOf(' (', start));
}

/** The member names of `interface name` in a TypeScript text (what it extends left out), comments dropped. */
function memberNamesOf(text: string, name: string): string[] {
  const body = new RegExp(`interface ${name}<[^{]*\\{\\n([\\s\\S]*?)\\n\\}`).exec(text);
  expect(body, `interface ${name} not found`).not.toBeNull();
  return body![1]!
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => /^\s*(?:readonly )?(\w+)\??[(:]/.exec(line)?.[1])
    .filter((member) => member !== undefined)
    .sort();
}

describe("the docs' layering claims against the code", () => {
  it("docs/architecture.md names exactly what http/'s modules import of the server", () => {
    const named = claim('`http/` imports only')
      .match(/`[^`]+`/g)!
      .map((span) => span.slice(1, -1));
    expect(new Set(named.slice(1))).toEqual(serverImportsOf('http'));
  });

  it('docs/architecture.md names the folders the slices import, and no slice but openapi/ imports another', () => {
    const text = readRepoFile('docs/architecture.md').replace(/\s+/g, ' ');
    const start = text.indexOf('The slices (');
    expect(start, '"The slices (" not found in docs/architecture.md').toBeGreaterThan(-1);
    const [listed = '', imported = ''] = text.slice(start, text.indexOf('never each other', start)).split(') import ');
    const spans = (part: string) => (part.match(/`[^`]+`/g) ?? []).map((span) => span.slice(1, -1));
    const slices = spans(listed);
    // A module named in a folder (`tracing/spans.ts`) is an import of that folder.
    const named = new Set(spans(imported).map((path) => path.replace(/\/.*$/, '/')));
    const importedFolders = new Map(
      slices.map((slice) => [slice, [...serverImportsOf(slice.slice(0, -1))].filter((path) => path.endsWith('/'))]),
    );
    const otherFolders = new Set([...importedFolders.values()].flat().filter((folder) => !slices.includes(folder)));
    expect(otherFolders).toEqual(named);
    for (const [slice, folders] of importedFolders) {
      if (slice !== 'openapi/')
        expect(
          folders.filter((folder) => slices.includes(folder)),
          slice,
        ).toEqual([]);
    }
  });

  it('the catalogue imports neither http/ nor a slice, as docs/architecture.md says', () => {
    expect(claim('`catalogue/` and `http/` sit side by side')).toContain('neither imports the other or a slice');
    const folders = [...serverImportsOf('catalogue')].filter((path) => path.endsWith('/'));
    expect(folders.sort()).toEqual(['bodies/', 'outcomes/', 'tracing/']);
  });

  it("docs/decisions/response-cache.md's CachedRoute has the code's members: a route is one object", () => {
    const code = readRepoFile('server/src/http/cached-route.ts');
    const documented = memberNamesOf(readRepoFile('docs/decisions/response-cache.md'), 'CachedRoute');
    expect(documented).toEqual([...memberNamesOf(code, 'CachedRoute'), ...memberNamesOf(code, 'Route')].sort());
  });
});
