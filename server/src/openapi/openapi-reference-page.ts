import { escapeHtml } from '../bodies/escape-html.js';
import type {
  HeaderObject,
  MediaTypeObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { type ApiDocument, HTTP_METHODS, type HttpMethod } from './openapi-document.js';
import { REFERENCE_PAGE_STYLE } from './reference-page-style.js';

/**
 * The reference page of `/api` (`/api/docs`), rendered on the server from the OpenAPI document: one HTML page
 * with a `<style>` and no script, so the site's Content-Security-Policy holds and nothing is loaded from another
 * origin. Operations are grouped by path; each shows its parameters and every answer it can give, with content
 * type, headers, schema and examples; the schemas follow. Every text from the document is HTML-escaped.
 */
export function renderReferencePage(document: ApiDocument): string {
  const page = new ReferencePage(document);
  return page.render();
}

/** What the page follows a `$ref` into, by the components' section that holds it. */
type Referable = { parameters: ParameterObject; headers: HeaderObject; responses: ResponseObject };
const isReference = (value: object): value is ReferenceObject => '$ref' in value;
class ReferencePage {
  readonly #document: ApiDocument;
  readonly #base: string;

  constructor(document: ApiDocument) {
    this.#document = document;
    this.#base = document.servers[0]?.url ?? '';
  }

  render(): string {
    const { info } = this.#document;
    const title = `${info.title} ${info.version}`;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — reference</title>
<meta name="description" content="${escapeHtml(info.summary ?? info.title)}">
<style>${REFERENCE_PAGE_STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the reference</a>
<header>
<h1>${escapeHtml(info.title)}</h1>
<p class="muted">Version ${escapeHtml(info.version)} · OpenAPI ${escapeHtml(this.#document.openapi)} · base URL <code>${escapeHtml(this.#base)}</code> · the machine-readable document: <a href="${escapeHtml(`${this.#base}/openapi.json`)}">${escapeHtml(`${this.#base}/openapi.json`)}</a></p>
</header>
${this.#contents()}
<main id="main">
<section aria-labelledby="about">
<h2 id="about">About this API</h2>
${markdown(info.description ?? '', 3)}
</section>
<section aria-labelledby="operations">
<h2 id="operations">Operations</h2>
${Object.entries(this.#document.paths)
  .map(([path, item]) => this.#path(path, item))
  .join('\n')}
</section>
<section aria-labelledby="responses">
<h2 id="responses">Shared responses</h2>
<p>The answers several operations give (<code>components.responses</code>), among them <code>Options</code> and <code>MethodNotAllowed</code>, which every path gives to <code>OPTIONS</code> and to the methods it does not document.</p>
${Object.entries(this.#document.components.responses)
  .map(([name, response]) => this.#sharedResponse(name, response))
  .join('\n')}
</section>
<section aria-labelledby="schemas">
<h2 id="schemas">Schemas</h2>
${Object.entries(this.#document.components.schemas)
  .map(([name, schema]) => this.#schema(name, schema))
  .join('\n')}
</section>
</main>
<footer class="muted"><p>Rendered from <a href="${escapeHtml(`${this.#base}/openapi.json`)}">the OpenAPI document</a> when the server started.</p></footer>
</body>
</html>
`;
  }

  #operations(item: PathItemObject): [HttpMethod, OperationObject][] {
    return HTTP_METHODS.flatMap((method) => (item[method] ? [[method, item[method]] as [HttpMethod, OperationObject]] : []));
  }

  #contents(): string {
    const links = Object.entries(this.#document.paths).flatMap(([path, item]) =>
      this.#operations(item).map(
        ([method, operation]) =>
          `<li><a href="#${escapeHtml(operation.operationId ?? '')}">${method.toUpperCase()} <code>${escapeHtml(this.#base + path)}</code></a> — ${escapeHtml(operation.summary ?? '')}</li>`,
      ),
    );
    return `<nav aria-label="Operations">
<ul>
${links.join('\n')}
<li><a href="#responses">Shared responses</a></li>
<li><a href="#schemas">Schemas</a></li>
</ul>
</nav>`;
  }

  #path(path: string, item: PathItemObject): string {
    const fullPath = this.#base + path;
    const id = `path-${slug(path)}`;
    return `<section aria-labelledby="${id}">
<h3 id="${id}"><code>${escapeHtml(fullPath)}</code></h3>
${item.description ? markdown(item.description, 4) : ''}
${this.#operations(item)
  .map(([method, operation]) => this.#operation(method, fullPath, operation))
  .join('\n')}
</section>`;
  }

  #operation(method: HttpMethod, fullPath: string, operation: OperationObject): string {
    const id = escapeHtml(operation.operationId ?? '');
    const summary = operation.summary ?? '';
    const parameters = (operation.parameters ?? []).map((parameter) => this.#resolve('parameters', parameter));
    return `<article class="operation" aria-labelledby="${id}">
<h4 id="${id}"><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(fullPath)}</code> — ${escapeHtml(summary)}</h4>
${markdown(operation.description ?? '', 5)}
${parameters.length === 0 ? '' : this.#parameters(operation, parameters)}
<h5>Responses</h5>
<div class="scroll" role="region" aria-label="${escapeHtml(`Responses of ${summary}`)}" tabindex="0">
<table>
<thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body and headers</th></tr></thead>
<tbody>
${Object.entries(operation.responses ?? {})
  .map(([status, response]) => this.#response(status, this.#resolve('responses', response as ResponseObject | ReferenceObject)))
  .join('\n')}
</tbody>
</table>
</div>
</article>`;
  }

  #parameters(operation: OperationObject, parameters: ParameterObject[]): string {
    return `<h5>Parameters</h5>
<div class="scroll" role="region" aria-label="${escapeHtml(`Parameters of ${operation.summary ?? ''}`)}" tabindex="0">
<table>
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>
${parameters
  .map(
    (parameter) => `<tr>
<th scope="row"><code>${escapeHtml(parameter.name)}</code>${parameter.required ? ' <span class="muted">(required)</span>' : ''}</th>
<td>${escapeHtml(parameter.in)}</td>
<td>${this.#type(parameter.schema)}</td>
<td>${markdown(parameter.description ?? '', 6)}${parameter.example === undefined ? '' : `<p class="muted">Example: <code>${escapeHtml(String(parameter.example))}</code></p>`}</td>
</tr>`,
  )
  .join('\n')}
</tbody>
</table>
</div>`;
  }

  #response(status: string, response: ResponseObject): string {
    return `<tr>
<th scope="row">${escapeHtml(status)}</th>
<td>${markdown(response.description, 6)}</td>
<td>${this.#body(response)}</td>
</tr>`;
  }

  /** A response's content types (with schema and examples) and its headers. */
  #body(response: ResponseObject): string {
    const content = Object.entries(response.content ?? {});
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => [name, this.#resolve('headers', header)] as const);
    const body =
      content.length === 0 ? '<p class="muted">No body.</p>' : content.map(([type, media]) => this.#media(type, media)).join('\n');
    const headerList =
      headers.length === 0
        ? ''
        : `<details><summary>Headers (${headers.length})</summary><dl>${headers
            .map(
              ([name, header]) =>
                `<dt><code>${escapeHtml(name)}</code>: ${this.#type(header.schema)}${header.required ? '' : ' <span class="muted">(not always)</span>'}</dt><dd>${markdown(header.description ?? '', 6)}</dd>`,
            )
            .join('')}</dl></details>`;
    return body + headerList;
  }

  #sharedResponse(name: string, response: ResponseObject): string {
    const id = `response-${slug(name)}`;
    return `<section aria-labelledby="${id}">
<h3 id="${id}">${escapeHtml(name)}</h3>
${markdown(response.description, 4)}
${this.#body(response)}
</section>`;
  }

  #media(type: string, media: MediaTypeObject): string {
    const examples = media.examples
      ? Object.values(media.examples).map((example) => ('value' in example ? (example.value as unknown) : undefined))
      : media.example === undefined
        ? []
        : [media.example];
    const shown = examples.map((example) => `<pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`).join('');
    return `<p><code>${escapeHtml(type)}</code>${media.schema ? `: ${this.#type(media.schema)}` : ''}</p>${
      shown === '' ? '' : `<details><summary>Example${examples.length > 1 ? 's' : ''}</summary>${shown}</details>`
    }`;
  }

  /** A schema in a few words: a link to a named schema, or its type and constraints. */
  #type(schema: SchemaObject | ReferenceObject | undefined): string {
    if (schema === undefined) return '';
    if (schema.$ref !== undefined) {
      const name = schema.$ref.split('/').at(-1) ?? '';
      return `<a href="#schema-${escapeHtml(slug(name))}">${escapeHtml(name)}</a>`;
    }
    if (!('type' in schema) && !('enum' in schema) && !('const' in schema)) return '';
    const facts: string[] = [];
    if (schema.type === 'array' && schema.items) facts.push(`array of ${this.#type(schema.items)}`);
    else if (schema.type !== undefined) facts.push(escapeHtml([schema.type].flat().join(' or ')));
    if (schema.enum) facts.push(`one of ${schema.enum.map((value) => `<code>${escapeHtml(String(value))}</code>`).join(', ')}`);
    if (schema.const !== undefined) facts.push(`<code>${escapeHtml(String(schema.const))}</code>`);
    if (schema.minimum !== undefined) facts.push(`≥ ${schema.minimum}`);
    if (schema.maximum !== undefined) facts.push(`≤ ${schema.maximum}`);
    if (schema.pattern !== undefined) facts.push(`matching <code>${escapeHtml(schema.pattern)}</code>`);
    return facts.join(', ');
  }

  #schema(name: string, schema: SchemaObject): string {
    const id = `schema-${slug(name)}`;
    const properties = Object.entries(schema.properties ?? {});
    const required = new Set(schema.required ?? []);
    const table =
      properties.length === 0
        ? ''
        : `<div class="scroll" role="region" aria-label="${escapeHtml(`Fields of ${name}`)}" tabindex="0">
<table>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>
${properties
  .map(
    ([field, property]) =>
      `<tr><th scope="row"><code>${escapeHtml(field)}</code>${required.has(field) ? '' : ' <span class="muted">(optional)</span>'}</th><td>${this.#type(property)}</td><td>${property.description ? markdown(property.description, 6) : ''}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>
</div>`;
    return `<section aria-labelledby="${id}">
<h3 id="${id}">${escapeHtml(name)}</h3>
${schema.description ? markdown(schema.description, 4) : ''}
<p>${this.#type(schema)}${schema.additionalProperties === false ? ', no other fields' : ''}</p>
${table}
<details><summary>JSON Schema</summary><pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre></details>
</section>`;
  }

  /** A component the document points at with `$ref` (`#/components/responses/NotFound`) in `section`, or the object itself. */
  #resolve<Section extends keyof Referable>(section: Section, value: Referable[Section] | ReferenceObject): Referable[Section] {
    if (!isReference(value)) return value;
    const [, , referred, name = ''] = value.$ref.split('/');
    const sections: { [Name in keyof Referable]: Record<string, Referable[Name]> } = this.#document.components;
    const found = referred === section ? sections[section][name] : undefined;
    if (found === undefined) throw new Error(`The OpenAPI document points at a missing component: ${value.$ref}`);
    return found;
  }
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * The document's descriptions as HTML: the little of CommonMark they use — paragraphs, `## ` headings (rendered
 * at `headingLevel`), `- ` lists, `code`, **bold** and [links](url). The text is escaped first, so nothing in it
 * can become markup but these. (Unlike CommonMark, `**` and links inside a code span are not kept literal: no text here
 * needs that.)
 */
function markdown(text: string, headingLevel: number): string {
  return text
    .trim()
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- '))) {
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
      }
      const heading = /^#{1,6} (.*)$/.exec(block);
      if (heading) return `<h${headingLevel}>${inline(heading[1] ?? '')}</h${headingLevel}>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]*)`/g, '<code>$1</code>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
}
