// The README's configuration table, made from the settings' one declaration (server/src/config.ts):
//   node scripts/settings-table.mjs           writes it into README.md, between its two markers;
//   node scripts/settings-table.mjs --check   (`npm run lint:settings`, part of `npm run lint`) fails, naming the
//                                             first row that differs, when README.md is not what it would write.
// It runs config.ts from source, as Node 24 strips its types; the siblings config.ts imports as `.js`, the name
// TypeScript compiles them to, are loaded as the `.ts` files they are.
import { readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromSource = context.parentURL?.includes('/server/src/') && /^\.\.?\/.*\.js$/.test(specifier);
    return nextResolve(fromSource ? specifier.replace(/\.js$/, '.ts') : specifier, context);
  },
});
const { SETTINGS, TRACES_ROW } = await import('../server/src/config.ts');

const README = new URL('../README.md', import.meta.url);
const START = '<!-- settings table: made from server/src/config.ts by scripts/settings-table.mjs; edit it there -->';
const END = '<!-- end of the settings table -->';

/** One row a variable, its secret's `_FILE` right after it, and the one row of the OpenTelemetry SDK's variables. */
function table() {
  const row = (...cells) => `| ${cells.join(' | ')} |`;
  const rows = [row('variable', 'default', 'meaning'), row('---', '---', '---')];
  for (const [name, setting] of Object.entries(SETTINGS)) {
    const shown =
      setting.default === undefined ? (setting.note ?? 'unset') : `\`${setting.default}\`${setting.note ? ` (${setting.note})` : ''}`;
    rows.push(row(`\`${name}\``, shown, setting.meaning));
    if (setting.secretFile) rows.push(row(`\`${name}_FILE\``, 'unset', setting.secretFile));
  }
  rows.push(row(TRACES_ROW.variable, 'unset', TRACES_ROW.meaning));
  return rows.join('\n');
}

const readme = readFileSync(README, 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start === -1 || end < start) {
  console.error(`README.md: the settings table's markers are missing or out of order:\n${START}\n${END}`);
  process.exit(1);
}
const current = readme.slice(start + START.length, end).trim();
const made = table();
if (process.argv.includes('--check')) {
  if (current !== made) {
    const [had, wants] = [current.split('\n'), made.split('\n')];
    const line = wants.findIndex((text, index) => had[index] !== text);
    const at = line === -1 ? had.length : line;
    console.error(
      `README.md's settings table differs from server/src/config.ts, first at its row ${at + 1}:\n` +
        `  README:    ${had[at] ?? '(none)'}\n  config.ts: ${wants[at] ?? '(none)'}\n` +
        'Run `node scripts/settings-table.mjs` to write it from the declaration.',
    );
    process.exit(1);
  }
} else {
  writeFileSync(README, `${readme.slice(0, start + START.length)}\n\n${made}\n\n${readme.slice(end)}`);
}
