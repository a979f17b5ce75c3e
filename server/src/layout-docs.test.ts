import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = fileURLToPath(new URL('.', import.meta.url));

/**
 * What docs/architecture.md's "Repository layout" lists under `server/src/`: each line indented by two spaces names a
 * file or a folder (`http/`, `catalogue/fills/`), the text after it says what it holds.
 */
function documentedServerEntries(): string[] {
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const lines = doc.split('\n');
  const start = lines.indexOf('server/src/');
  expect(start, 'docs/architecture.md lists no server/src/').toBeGreaterThan(-1);
  const entries: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(' ')) break;
    const entry = /^ {2}(\S+)/.exec(line)?.[1];
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

describe("docs/architecture.md's layout of server/src against the folders", () => {
  it('lists every folder of server/src, its sub-folders too, and no folder that is not there', () => {
    const folders = readdirSync(SERVER_SRC, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${relative(SERVER_SRC, join(entry.parentPath, entry.name))}/`);
    const documented = documentedServerEntries().filter((entry) => entry.endsWith('/'));
    expect(documented.sort()).toEqual(folders.sort());
  });

  it('names only files and sub-folders that exist', () => {
    const documented = documentedServerEntries();
    expect(documented.length).toBeGreaterThan(0);
    const missing = documented.filter((entry) => {
      const path = join(SERVER_SRC, entry);
      return !existsSync(path) || statSync(path).isDirectory() !== entry.endsWith('/');
    });
    expect(missing).toEqual([]);
  });
});

/** The most lines of production code one folder of the catalogue holds (docs/architecture.md, "The catalogue's rooms"). */
const ROOM_MAX_LINES = 1_200;

describe("the catalogue's rooms", () => {
  it(`each folder of catalogue/ holds at most ${ROOM_MAX_LINES} lines of production code`, () => {
    const catalogue = join(SERVER_SRC, 'catalogue');
    const rooms = readdirSync(catalogue, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(rooms.length).toBeGreaterThanOrEqual(5);
    const sizes = Object.fromEntries(
      [catalogue, ...rooms].map((room) => {
        const files = readdirSync(room).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
        const lines = files.reduce((sum, file) => sum + readFileSync(join(room, file), 'utf8').split('\n').length - 1, 0);
        return [relative(SERVER_SRC, room), lines];
      }),
    );
    const over = Object.entries(sizes).filter(([, lines]) => lines > ROOM_MAX_LINES);
    expect(over, JSON.stringify(sizes)).toEqual([]);
  });
});
