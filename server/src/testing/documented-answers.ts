import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { HeaderObject, ReferenceObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { type ApiDocument, OPENAPI_DOCUMENT } from '../openapi/openapi-document.js';

/**
 * Holds one answer to the OpenAPI document (docs/testing.md, "Every answer checked against the document"): the
 * status is one the document lists for what was asked (the operation, or the shared responses for `OPTIONS`, other
 * methods, paths no route takes and requests the server could not read), the content type one it lists for that
 * status, the JSON body valid against its schema (JSON Schema 2020-12, ajv), and every header it names there and
 * matching its schema. Answers outside `/api` (pages, probes, files) are not the document's: they pass unchecked.
 */

/** One answer as it went over the wire: the body decoded from its `Content-Encoding`. */
export interface SeenAnswer {
  method: string;
  /** The request target as sent: path and query. With `method` '', a request the server could not read. */
  url: string;
  status: number;
  /** Names in lower case; a header sent twice is an array. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** How the site the answer came from is configured, where the document leaves a header to the configuration. */
export interface SiteSettings {
  /** `RATE_LIMIT_PER_MINUTE` is not 0: `RateLimit` and `RateLimit-Policy` are sent wherever listed. */
  rateLimited: boolean;
  /** `CORS_ORIGINS=*`: `Access-Control-Allow-Origin` and `-Expose-Headers` are sent wherever listed. */
  anyOrigin: boolean;
}

/** Where in the document an answer was looked up, and the responses there it may be. */
export interface Lookup {
  /** `GET /products/{id}`, `OPTIONS /products`, `GET (no route)`, `(unreadable request)`. */
  operation: string;
  /** The responses the answer may be, each with what a coverage count records (`get /products/{id} 200`, `shared Options 204`); none: undocumented. */
  candidates: { key: string; response: ResponseObject }[];
}

/** The document as served (plain JSON), every `$ref` replaced by what it names, as a client library reads it. */
export function resolvedDocument(document: ApiDocument = OPENAPI_DOCUMENT): ApiDocument {
  const plain = JSON.parse(JSON.stringify(document)) as ApiDocument;
  const resolve = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    const target = (node as { $ref?: unknown }).$ref;
    if (typeof target === 'string' && target.startsWith('#/')) {
      if (seen.includes(target)) throw new Error(`the document's ${target} refers to itself`);
      const named = target
        .slice(2)
        .split('/')
        .reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')], plain);
      if (named === undefined) throw new Error(`the document's ${target} names nothing`);
      return resolve(named, [...seen, target]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, seen)]));
  };
  return resolve(plain, []) as ApiDocument;
}

/**
 * The document's path templates as Express matches them: case-insensitive, a trailing slash optional, segments raw,
 * and in the order the routes are mounted where two could take one URL: literal paths before parameters, and of two
 * with one parameter the one whose parameter comes later (`/products/category/{name}` takes
 * `/products/category/image` before `/products/{id}/image` could).
 */
function pathMatchers(document: ApiDocument): { path: string; parameters: number; firstParameter: number; pattern: RegExp }[] {
  const base = document.servers[0]?.url ?? '';
  return Object.keys(document.paths)
    .map((path) => {
      const regexText = `${base}${path}`
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
      const firstParameter = path.split('/').findIndex((segment) => segment.startsWith('{'));
      return { path, parameters: (path.match(/\{/g) ?? []).length, firstParameter, pattern: new RegExp(`^${regexText}/?$`, 'i') };
    })
    .sort((a, b) => a.parameters - b.parameters || b.firstParameter - a.firstParameter);
}

export interface AnswerChecker {
  /** What is wrong with the answer, in words naming the request; empty when the document promises it. */
  problems(answer: SeenAnswer, settings: SiteSettings): string[];
  /** The same, with the response it matched when it did (its coverage key), for tests that count what they produced. */
  check(answer: SeenAnswer, settings: SiteSettings): { problems: string[]; key?: string };
  /** Where the document describes this answer (undefined for answers outside `/api`). */
  lookUp(answer: Pick<SeenAnswer, 'method' | 'url' | 'status'>): Lookup | undefined;
  /** Whether `value` is valid against one of the document's schemas (a parameter's, say). */
  validatesAgainst(schema: SchemaObject | ReferenceObject, value: unknown): boolean;
  /** Checks an answer against one response object of the document (a shared one, for what no operation names). */
  problemsAgainst(response: ResponseObject, answer: SeenAnswer, settings: SiteSettings, what: string): string[];
  readonly document: ApiDocument;
}

/** Statuses a request may get before it is read as one: the shared responses the server's `clientError` answers with. */
const UNREADABLE_REQUEST: Record<number, string> = { 400: 'MalformedRequest', 408: 'RequestTimeout', 431: 'RequestHeadersTooLarge' };

export function createAnswerChecker(document: ApiDocument = resolvedDocument()): AnswerChecker {
  // Strict: a schema ajv cannot read is an error, not a pass. The document names no `format`; one added would be
  // refused here as unknown until ajv-formats is added with it.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  const validate = (schema: SchemaObject, value: unknown): string | undefined => {
    let check = validators.get(schema);
    if (check === undefined) {
      check = ajv.compile(schema);
      validators.set(schema, check);
    }
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
  const matchers = pathMatchers(document);
  const base = document.servers[0]?.url ?? '/api';
  const shared = (name: string) => document.components.responses[name];

  function isApi(url: string): boolean {
    const path = url.split('?')[0]!.toLowerCase();
    return path === base || path.startsWith(`${base}/`);
  }

  function lookUp({ method, url, status }: Pick<SeenAnswer, 'method' | 'url' | 'status'>): Lookup | undefined {
    const sharedOne = (name: string | undefined) => {
      const response = name === undefined ? undefined : shared(name);
      return response === undefined ? [] : [{ key: `shared ${name} ${status}`, response }];
    };
    // Before a request is read as one (no method known), only the answers to what could not be read.
    if (method === '') return { operation: '(unreadable request)', candidates: sharedOne(UNREADABLE_REQUEST[status]) };
    if (!isApi(url)) return undefined;
    const path = url.split('?')[0]!;
    const documented = matchers.find(({ pattern }) => pattern.test(path))?.path;
    const verb = method.toUpperCase();
    const operation = documented === undefined ? undefined : document.paths[documented]?.get;
    const where = `${verb} ${documented ?? '(no route)'}`;
    // Whatever the path and method: what a request that could not be read as one gets (a 400 may also be the operation's own).
    const unreadable = sharedOne(UNREADABLE_REQUEST[status]);
    if (verb === 'OPTIONS' && status === 204) return { operation: where, candidates: sharedOne('Options') };
    if (operation === undefined) {
      const anyPath = { 404: 'NoSuchPath', 405: 'MethodNotAllowed', 414: 'UriTooLong', 429: 'TooManyRequests' }[status];
      return { operation: where, candidates: [...sharedOne(anyPath), ...unreadable] };
    }
    if (verb !== 'GET' && verb !== 'HEAD' && status === 405) return { operation: where, candidates: sharedOne('MethodNotAllowed') };
    const own = operation.responses?.[String(status)] as ResponseObject | undefined;
    const asMethod = verb === 'HEAD' || verb === 'GET' ? 'get' : verb.toLowerCase();
    return {
      operation: where,
      candidates: [...(own === undefined ? [] : [{ key: `${asMethod} ${documented} ${status}`, response: own }]), ...unreadable],
    };
  }

  function problemsAgainst(response: ResponseObject, answer: SeenAnswer, settings: SiteSettings, what: string): string[] {
    const problems: string[] = [];
    const { method, status, headers, body } = answer;
    const contentTypeHeader = headers['content-type'];
    const contentType = typeof contentTypeHeader === 'string' ? contentTypeHeader.split(';')[0]?.trim() : undefined;
    const hasBody = method.toUpperCase() !== 'HEAD' && status !== 304 && status !== 204;
    if (response.content === undefined) {
      if (body.length > 0) problems.push(`${what}: a body the document does not list`);
    } else {
      const ranges = Object.keys(response.content);
      const range = ranges.find(
        (candidate) => candidate === contentType || (candidate.endsWith('/*') && contentType?.startsWith(candidate.slice(0, -1))),
      );
      if (range === undefined) {
        problems.push(`${what}: content type ${contentType ?? '(none)'} is not among ${ranges.join(', ')}`);
      } else if (hasBody) {
        const schema = response.content[range]?.schema as SchemaObject | undefined;
        if (body.length === 0) problems.push(`${what}: an empty body`);
        else if (range === 'application/json' && schema !== undefined) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            problems.push(`${what}: a body that is not JSON: ${JSON.stringify(body.toString('utf8').slice(0, 120))}`);
          }
          const error = parsed === undefined ? undefined : validate(schema, parsed);
          if (error !== undefined) problems.push(`${what}: the body does not match its schema: ${error}`);
        }
      }
    }
    const alwaysSent = new Set([
      ...(settings.rateLimited ? ['ratelimit', 'ratelimit-policy'] : []),
      ...(settings.anyOrigin ? ['access-control-allow-origin', 'access-control-expose-headers'] : []),
    ]);
    for (const [name, header] of Object.entries(response.headers ?? {}) as [string, HeaderObject][]) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required || alwaysSent.has(name.toLowerCase())) problems.push(`${what}: header ${name} missing`);
        continue;
      }
      if (typeof value !== 'string') {
        problems.push(`${what}: header ${name} sent ${value.length} times`);
        continue;
      }
      const schema = header.schema as SchemaObject;
      const spelt = schema.type === 'integer' && /^[0-9]+$/.test(value) ? Number(value) : value;
      const error = validate(schema, spelt);
      if (error !== undefined) problems.push(`${what}: header ${name}: ${value}: ${error}`);
    }
    return problems;
  }

  function check(answer: SeenAnswer, settings: SiteSettings): { problems: string[]; key?: string } {
    const found = lookUp(answer);
    if (found === undefined) return { problems: [] };
    const what = `${found.operation} (${answer.method || '?'} ${shortened(answer.url)}) → ${answer.status}`;
    if (found.candidates.length === 0) return { problems: [`${what}: the document lists no such answer`] };
    let first: string[] | undefined;
    for (const { key, response } of found.candidates) {
      const problems = problemsAgainst(response, answer, settings, what);
      if (problems.length === 0) return { problems, key };
      first ??= problems;
    }
    return { problems: first! };
  }

  return {
    document,
    lookUp,
    validatesAgainst: (schema, value) => validate(schema as SchemaObject, value) === undefined,
    problemsAgainst,
    problems(answer, settings) {
      return check(answer, settings).problems;
    },
    check,
  };
}

function shortened(url: string): string {
  return url.length <= 120 ? url : `${url.slice(0, 100)}… (${url.length} characters)`;
}

/** The body as the client reads it: undone from its `Content-Encoding` (identity, gzip, br, deflate). */
export function decodedBody(encoding: string | string[] | undefined, bytes: Buffer): Buffer {
  if (bytes.length === 0 || encoding === undefined || encoding === 'identity') return bytes;
  if (encoding === 'gzip') return gunzipSync(bytes);
  if (encoding === 'br') return brotliDecompressSync(bytes);
  if (encoding === 'deflate') return inflateSync(bytes);
  throw new Error(`a Content-Encoding the checker cannot read: ${String(encoding)}`);
}
