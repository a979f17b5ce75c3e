import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { type ApiDocument, HTTP_METHODS, OPENAPI_DOCUMENT } from './openapi-document.js';
import { OPENAPI_CACHE_CONTROL } from './openapi-routes.js';
import { renderReferencePage } from './openapi-reference-page.js';

let site: TestSite;

beforeAll(async () => {
  site = await startTestSite();
});

afterAll(async () => {
  await site.close();
});

/** The document as sent for one `Accept-Encoding`, its bytes undecoded (supertest would gunzip them). */
function getDocument(acceptEncoding: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${site.url}/api/openapi.json`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('GET /api/openapi.json', () => {
  it('answers the document, the same bytes every time, compressed as the client allows', async () => {
    const identity = await getDocument('identity');
    expect(identity.status).toBe(200);
    expect(identity.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(identity.headers['cache-control']).toBe(OPENAPI_CACHE_CONTROL);
    const bytes = identity.body;
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)));

    const again = await getDocument('identity');
    expect(again.headers.etag).toBe(identity.headers.etag);
    expect(again.body.equals(bytes)).toBe(true);

    const gzip = await getDocument('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(bytes)).toBe(true);
    const br = await getDocument('br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(bytes)).toBe(true);
    expect(new Set([identity.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3);

    // Any encoding's validator revalidates: they name the same document.
    await request(site.server).get('/api/openapi.json').set('If-None-Match', String(gzip.headers.etag)).expect(304);
  });

  it('answers HEAD with the headers and no body, and other methods with a 405', async () => {
    const head = await request(site.server).head('/api/openapi.json').expect(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.text).toBeUndefined();
    const post = await request(site.server).post('/api/openapi.json').send({ a: 1 }).expect(405);
    expect(post.body).toEqual({ error: 'Method not allowed' });
  });
});

describe('GET /api/docs', () => {
  let html: string;
  beforeAll(async () => {
    const answer = await request(site.server).get('/api/docs').expect(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe(OPENAPI_CACHE_CONTROL);
    // The site's policy: no inline script, nothing from another origin. The page needs neither.
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    html = answer.text;
  });

  it('is one self-contained page: no script, nothing loaded from anywhere', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<iframe|<object|<embed/i);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('has the landmarks and headings a screen reader navigates by', () => {
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    for (const landmark of ['<header>', '<nav aria-label="Operations">', '<main id="main">', '<footer']) expect(html).toContain(landmark);
    expect(html).toContain('<a class="skip" href="#main">');
    // Every table's headers are marked as such, for column and row.
    const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) expect(table).toContain('<th scope="col">');
    // Every table scrolls in a region of its own, which can be reached by keyboard and is named.
    const regions = html.match(/<div class="scroll"[^>]*>\s*<table>/g) ?? [];
    expect(regions).toHaveLength(tables.length);
    for (const region of regions) expect(region).toMatch(/role="region" aria-label="[^"]+" tabindex="0"/);
  });

  it('shows every operation, with its parameters and every answer it documents, and every schema', () => {
    expect(html).toContain('<a href="/api/openapi.json">/api/openapi.json</a>');
    for (const [path, item] of Object.entries(OPENAPI_DOCUMENT.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        const section = html.slice(html.indexOf(`<article class="operation" aria-labelledby="${operation.operationId}">`));
        expect(section, operation.operationId).toContain(`<code>/api${path}</code>`);
        const article = section.slice(0, section.indexOf('</article>'));
        for (const status of Object.keys(operation.responses ?? {})) expect(article).toContain(`<th scope="row">${status}</th>`);
        for (const parameter of operation.parameters ?? []) {
          const name =
            '$ref' in parameter ? OPENAPI_DOCUMENT.components.parameters[parameter.$ref.split('/').at(-1)!]!.name : parameter.name;
          expect(article).toContain(`<code>${name}</code>`);
        }
      }
    }
    for (const name of [...Object.keys(OPENAPI_DOCUMENT.components.schemas), ...Object.keys(OPENAPI_DOCUMENT.components.responses)]) {
      expect(html).toMatch(new RegExp(`<h3 id="(schema|response)-${name}">${name}</h3>`));
    }
  });

  it('renders the descriptions’ markdown: no stray markers outside the JSON shown as code', () => {
    const text = html.replace(/<pre>[\s\S]*?<\/pre>/g, '');
    expect(text).not.toContain('`');
    expect(text).not.toContain('**');
    expect(html).toContain('<strong>An unknown product id is <code>404 {&quot;error&quot;:&quot;Product not found&quot;}</code></strong>');
    expect(html).toContain('<a href="https://fakestoreapi.com">Fake Store API</a>');
  });
});

describe('renderReferencePage', () => {
  it('writes every text of the document as text, markup and all', () => {
    const hostile = '<script>alert("x")</script> & \'quoted\'';
    const document: ApiDocument = structuredClone(OPENAPI_DOCUMENT);
    document.info.title = hostile;
    document.info.description = `**${hostile}** \`${hostile}\` [${hostile}](https://example.com/"onmouseover="alert(1))`;
    document.components.schemas.Product!.description = hostile;
    document.components.parameters.Limit!.example = hostile;
    document.paths['/products']!.get!.summary = hostile;

    const page = renderReferencePage(document);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('"onmouseover="');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
  });

  it('refuses a reference to a component the document does not have', () => {
    const document: ApiDocument = structuredClone(OPENAPI_DOCUMENT);
    document.paths['/products']!.get!.responses!['418'] = { $ref: '#/components/responses/Teapot' };
    expect(() => renderReferencePage(document)).toThrow('#/components/responses/Teapot');
  });
});
