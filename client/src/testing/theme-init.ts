import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';

const initScript = readFileSync(join(import.meta.dirname, '../../public/theme-init.js'), 'utf8');

/** Runs public/theme-init.js as a page load does before the app starts: it sets the dark class from the stored choice. */
export function runThemeInitScript(): void {
  runInThisContext(initScript);
}
