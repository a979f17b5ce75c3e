import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type AnswerChecker, createAnswerChecker, decodedBody, parseResponseHead, type SiteSettings } from './documented-answers.js';

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
    // Wrapped before Express and compression wrap them in turn, so what arrives here is what goes on the wire.
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;
    res.once('finish', () => {
      const head = (res as unknown as { _header?: string | null })._header;
      if (typeof head !== 'string') return;
      const { status, headers } = parseResponseHead(head);
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
