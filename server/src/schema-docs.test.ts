import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The repository's own files, read as a newcomer reads them. */
const readRepoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe("docs/decisions/catalogue-in-sqlite.md's schema against catalogue-database.ts", () => {
  it('names exactly the indexes the list is built with', () => {
    const created = [
      ...readRepoFile('server/src/catalogue/list/catalogue-database.ts').matchAll(/CREATE INDEX \w+ ON products \(([^)]+)\)/g),
    ].map(([, columns]) => `(${columns})`);
    const schema = readRepoFile('docs/decisions/catalogue-in-sqlite.md')
      .split('\n- ')
      .find((bullet) => bullet.startsWith('**The schema**'));
    expect(schema, 'no "**The schema**" bullet in docs/decisions/catalogue-in-sqlite.md').toBeDefined();
    const documented = [...schema!.replace(/\s+/g, ' ').matchAll(/`(\([\w ,]+\))`/g)].map(([, columns]) => columns);
    expect(created.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual(created.sort());
  });
});
