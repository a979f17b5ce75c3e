import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A built-looking client: index.html, one hashed asset, and a secret file next to (outside) the folder. */
export function createStaticDir(): { staticDir: string; secret: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'catalogue-static-'));
  const staticDir = join(root, 'dist');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(join(staticDir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
  writeFileSync(join(staticDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const secret = 'SECRET-OUTSIDE-STATIC-DIR';
  writeFileSync(join(root, 'secret.txt'), secret);
  return { staticDir, secret, remove: () => rmSync(root, { recursive: true, force: true }) };
}
