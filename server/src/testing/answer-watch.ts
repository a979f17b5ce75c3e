import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type AnswerChecker, createAnswerChecker, decodedBody, type SiteSettings } from './documented-answers.js';

/**
 * Every answer a test site sends, checked against the OpenAPI document as it leaves the server (docs/testing.md,
 * "Every answer checked against the document"), whichever client asked: supertest, fetch, a raw socket, the
 * client's components. What breaks the document is kept here until the test's end, when the set-up file
 * (check-answers-setup.ts) fails the test that met it.
 */

/** Held on globalThis: the set-up file and the test file may load this module by different paths. */
const REGISTRY = Symbol.for('catalogue.undocumentedAnswers');
type Registry = { problems: string[] };
function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= { problems: [] };
  return holder[REGISTRY];
}

/** The problems found since the last call, which forgets them. */
export function takeUndocumentedAnswers(): string[] {
  return registry().problems.splice(0);
}

/** Adds problems found outside a watched server (an answer a test read off a raw socket, say). */
export function reportUndocumentedAnswers(problems: readonly string[]): void {
  registry().problems.push(...problems);
}

let sharedChecker: AnswerChecker | undefined;
/** One checker per test file: compiling the document's schemas takes a moment. */
export function answerChecker(): AnswerChecker {
  sharedChecker ??= createAnswerChecker();
  return sharedChecker;
}

/** Records the bytes of every answer `server` sends and checks each once it is sent whole. */
export function watchAnswers(server: Server, settings: SiteSettings): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    // As received: Express rewrites req.url inside a mounted router (`/api/products` is `/products` there).
    const { method = '', url = '' } = req;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      // Not `instanceof Uint8Array`: under jsdom (the client's tests) that is another realm's class.
      else if (ArrayBuffer.isView(chunk)) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const writeHead = res.writeHead.bind(res);
    let head: { status: number; headers: Record<string, string | string[]> } | undefined;
    // Wrapped before Express and compression wrap them in turn, so what arrives here is what goes on the wire. Every
    // head goes through writeHead: Node's own implicit head (the first write or end) calls it too.
    res.writeHead = (statusCode: number, ...rest: unknown[]) => {
      const written = (writeHead as (...args: unknown[]) => ServerResponse)(statusCode, ...rest);
      head = {
        status: res.statusCode,
        headers: sentHeaders(
          res,
          rest.find((arg): arg is object => typeof arg === 'object' && arg !== null),
        ),
      };
      return written;
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;
    res.once('finish', () => {
      if (head === undefined) return;
      const { status, headers } = head;
      let body: Buffer;
      try {
        body = decodedBody(headers['content-encoding'], Buffer.concat(chunks));
      } catch (error) {
        reportUndocumentedAnswers([`${method} ${url}: a body that does not decode: ${String(error)}`]);
        return;
      }
      reportUndocumentedAnswers(answerChecker().problems({ method, url, status, headers, body }, settings));
    });
  });
}

/**
 * The header fields a writeHead just sent, as Node builds them (names in lower case, a field sent twice as a list):
 * those set on `res` before it, with the ones it was `given` merged in, or, when none were set, the ones `given`
 * alone, as an object, a flat `[name, value, …]` list (the response cache's, http/answer.ts) or a list of pairs.
 * Node's own framing fields (Date, Connection, Content-Length, Transfer-Encoding) are not among them: the document
 * describes none.
 */
function sentHeaders(res: ServerResponse, given: object | undefined): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const add = (name: unknown, value: unknown) => {
    const key = String(name).toLowerCase();
    const before = headers[key];
    const values = [...(before === undefined ? [] : [before].flat()), ...[value].flat().map(String)];
    headers[key] = values.length === 1 ? (values[0] ?? '') : values;
  };
  const set = res.getHeaders();
  if (Object.keys(set).length > 0 || given === undefined) for (const [name, value] of Object.entries(set)) add(name, value);
  else if (!Array.isArray(given)) for (const [name, value] of Object.entries(given)) add(name, value);
  else if (given.every((item) => Array.isArray(item))) for (const [name, value] of given as unknown[][]) add(name, value);
  else for (let index = 0; index < given.length; index += 2) add(given[index], given[index + 1]);
  return headers;
}
