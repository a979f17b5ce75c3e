import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Turns server/src and shared/src into plain JavaScript (no type check: `tsc -b` does that) so a test can run
 * the real `index.ts` as its own process, signals and exit codes included. The output sits under the root
 * node_modules/.cache so that the server's dependencies resolve from it as they do from server/dist.
 */
export function transpileServer(): { entry: string; remove(): void } {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'catalogue-server-'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  for (const workspace of ['shared', 'server']) {
    for (const file of sourceFiles(join(ROOT, workspace, 'src'))) {
      const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const sharedDir = join(out, 'shared', 'src');
      const toShared = relative(dirname(target), sharedDir).split('\\').join('/');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, outputText.replace(/(['"])@catalogue\/shared\/([\w-]+)\1/g, `$1${toShared}/$2.js$1`));
    }
  }
  return { entry: join(out, 'server', 'src', 'index.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
