import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageData, RenderRequest, RenderResult } from '@catalogue/shared/page-render';

export type { PageData, RenderRequest, RenderResult };

/*
 * The seam with the client: `client/src/entry-server.tsx`, built by Vite into `client/dist/server/entry-server.js`,
 * renders a page from data the server already holds. The server never imports the client's code; it loads the
 * built file once at start-up and checks what it hands back.
 */

export type RenderPage = (request: RenderRequest) => Promise<RenderResult>;

/** The built client's page template and renderer, ready to fill pages. */
export interface PageRenderer {
  render: RenderPage;
  template: PageTemplate;
}

/** Where the client build leaves its server renderer, inside the built client's folder. */
export const SERVER_ENTRY = join('server', 'entry-server.js');

/** The built client is there but unusable; the message is one line for the start-up error. */
export class RendererError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'RendererError';
  }
}

/**
 * Loads `index.html` and `server/entry-server.js` from the built client, once. `null` when the client is not built
 * (either file missing): pages then answer 503 until `npm run build` has run. A build that is there but broken
 * (no markers in the template, no `render` export, an entry that fails to load) is a RendererError: serving
 * empty pages would hide it.
 */
export async function loadPageRenderer(staticDir: string): Promise<PageRenderer | null> {
  const templatePath = join(staticDir, 'index.html');
  const entryPath = join(staticDir, SERVER_ENTRY);
  if (!existsSync(templatePath) || !existsSync(entryPath)) return null;
  const template = parseTemplate(await readFile(templatePath, 'utf8'));
  let entry: { render?: unknown };
  try {
    entry = (await import(pathToFileURL(entryPath).href)) as { render?: unknown };
  } catch (error) {
    throw new RendererError(`Cannot load the page renderer ${entryPath}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const { render } = entry;
  if (typeof render !== 'function') throw new RendererError(`The page renderer ${entryPath} exports no render function`);
  return { template, render: checked(render as RenderPage) };
}

/** The renderer's result, checked: a wrong shape is a bug in the build, answered as a 500, never half a page. */
function checked(render: RenderPage): RenderPage {
  return async (request) => {
    const result = await render(request);
    const { html, styles, state, preloads } = result;
    if (
      typeof html !== 'string' ||
      typeof styles !== 'string' ||
      typeof state !== 'string' ||
      !Array.isArray(preloads) ||
      !preloads.every((url) => typeof url === 'string')
    ) {
      throw new RendererError('The page renderer answered something other than { html, styles, state, preloads }');
    }
    return result;
  };
}

/** The built `index.html`, cut at the client's two markers once so that filling a page is a concatenation. */
export interface PageTemplate {
  /** Up to `<!--app-head-->`. */
  beforeHead: string;
  /** From there up to `<!--app-html-->` (inside `<div id="root">`). */
  beforeHtml: string;
  /** From there up to `</body>`. */
  beforeBodyEnd: string;
  /** `</body>` and what follows. */
  end: string;
}

const HEAD_MARKER = '<!--app-head-->';
const HTML_MARKER = '<!--app-html-->';
const BODY_END = '</body>';
/**
 * The template's own title and description are the bare app's (the Vite dev server shows them); every rendered
 * page writes its own, and a second `<title>` would be the one browsers show.
 */
const STATIC_HEAD_TAGS = [/<title>[^<]*<\/title>\s*/i, /<meta\s+name="description"[^>]*>\s*/i];

export function parseTemplate(html: string): PageTemplate {
  const head = html.indexOf(HEAD_MARKER);
  const root = html.indexOf(HTML_MARKER);
  const bodyEnd = html.lastIndexOf(BODY_END);
  if (head === -1 || root === -1 || bodyEnd === -1 || !(head < root && root < bodyEnd)) {
    throw new RendererError(`The built index.html lacks the ${HEAD_MARKER} and ${HTML_MARKER} markers, in that order, before ${BODY_END}`);
  }
  let beforeHead = html.slice(0, head);
  for (const tag of STATIC_HEAD_TAGS) beforeHead = beforeHead.replace(tag, '');
  return {
    beforeHead,
    beforeHtml: html.slice(head + HEAD_MARKER.length, root),
    beforeBodyEnd: html.slice(root + HTML_MARKER.length, bodyEnd),
    end: html.slice(bodyEnd),
  };
}

/** The whole page: the head's tags at the head marker, the markup in `#root`, the data blocks before `</body>`. */
export function fillTemplate(template: PageTemplate, parts: { head: string; html: string; bodyEnd: string }): string {
  return template.beforeHead + parts.head + template.beforeHtml + parts.html + template.beforeBodyEnd + parts.bodyEnd + template.end;
}
