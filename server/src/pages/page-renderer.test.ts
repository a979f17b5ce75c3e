import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fillTemplate, loadPageRenderer, parseTemplate, RendererError } from './page-renderer.js';

const TEMPLATE =
  '<!doctype html><html><head><meta charset="UTF-8" /><title>Catalogue</title>\n<meta name="description" content="The bare app." />\n' +
  '<script type="module" crossorigin src="/assets/index-1.js"></script><!--app-head--></head><body><div id="root"><!--app-html--></div></body></html>';

let dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A built client folder with these files (path → content). */
function builtClient(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-renderer-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('parseTemplate and fillTemplate', () => {
  it('puts the head at its marker, the markup in #root and the data blocks before </body>, without the bare app’s title', () => {
    const page = fillTemplate(parseTemplate(TEMPLATE), {
      head: '<title>T</title>',
      html: '<main>M</main>',
      bodyEnd: '<script type="application/json">{}</script>',
    });
    expect(page).toBe(
      '<!doctype html><html><head><meta charset="UTF-8" /><script type="module" crossorigin src="/assets/index-1.js"></script><title>T</title></head>' +
        '<body><div id="root"><main>M</main></div><script type="application/json">{}</script></body></html>',
    );
  });

  it.each([
    ['no markers', '<html><head></head><body><div id="root"></div></body></html>'],
    ['markers in the wrong order', '<html><head><!--app-html--></head><body><div id="root"><!--app-head--></div></body></html>'],
    ['no </body>', '<html><head><!--app-head--></head><div id="root"><!--app-html--></div>'],
  ])('refuses a template with %s', (_, html) => {
    expect(() => parseTemplate(html)).toThrow(RendererError);
  });
});

describe('loadPageRenderer', () => {
  it('is null while the client is not built', async () => {
    expect(await loadPageRenderer(builtClient({ 'index.html': TEMPLATE }))).toBeNull();
    expect(await loadPageRenderer(builtClient({ 'server/entry-server.js': 'export async function render() {}' }))).toBeNull();
  });

  it('loads the built renderer once and calls it', async () => {
    const dir = builtClient({
      'index.html': TEMPLATE,
      'server/entry-server.js':
        'let calls = 0; export async function render({ url }) { calls += 1; return { html: url + calls, styles: "", state: "{}", preloads: [] }; }',
    });
    const renderer = (await loadPageRenderer(dir))!;
    expect((await renderer.render({ url: '/a', route: { kind: 'not-found' }, data: {} })).html).toBe('/a1');
    expect((await renderer.render({ url: '/b', route: { kind: 'not-found' }, data: {} })).html).toBe('/b2');
  });

  it.each([
    ['an entry that fails to load', 'import "./missing-chunk.js";', /Cannot load the page renderer .*entry-server\.js/],
    ['an entry without render', 'export const notRender = 1;', /exports no render function/],
  ])('stops start-up with one line for %s', async (_, entry, message) => {
    const dir = builtClient({ 'index.html': TEMPLATE, 'server/entry-server.js': entry });
    const error = await loadPageRenderer(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RendererError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses an answer of the wrong shape rather than sending half a page', async () => {
    const dir = builtClient({
      'index.html': TEMPLATE,
      'server/entry-server.js': 'export async function render() { return { html: "<p>x</p>", styles: "", state: {}, preloads: [] }; }',
    });
    const renderer = (await loadPageRenderer(dir))!;
    await expect(renderer.render({ url: '/', route: { kind: 'home' }, data: {} })).rejects.toThrow(RendererError);
  });
});
