import { Worker } from 'node:worker_threads';
import type { EncodedBody } from '../http/encoded-body.js';
import { asBuffer, type AskList, catalogueList, type CatalogueList, shapeOf } from './catalogue-list.js';
import { answerQuestion } from './compact-list.js';
import type { KeeperReply, KeeperRequest, MadeList } from './list-keeper-worker.js';
import { UpstreamError } from './product-source.js';

/**
 * The product list's thread (docs/decisions/catalogue-off-the-request-thread.md): one worker thread fills the list
 * and keeps a large one, answering the request thread's questions about it with the bytes of one answer
 * (list-keeper-worker.ts). Fills are rare (once per TTL, one at a time per key, read-through-cache.ts), and a second
 * thread would only compete with the event loop for the machine's cores. While it keeps no list (a small catalogue's
 * is handed over whole) the thread exits after a while, so its heap is given back between fills.
 */
export interface ListKeeper {
  /**
   * Downloads, parses, validates and indexes the upstream's list; `ok: false` with the message of the
   * UpstreamError to throw when the upstream failed (refused, timed out, past UPSTREAM_MAX_BYTES, not a JSON array).
   */
  fill(request: {
    url: string;
    timeoutMs: number;
    maxBytes: number;
  }): Promise<
    { ok: true; list: CatalogueList; dropped: { index: number; issues: string }[] } | { ok: false; message: string; timedOut: boolean }
  >;
  /** A list from the JSON of a copy another replica shared; undefined when the copy is not a valid list. */
  load(json: Buffer): Promise<CatalogueList | undefined>;
  close(): Promise<void>;
}

/**
 * The worker runs the built JavaScript next to this file; when the server itself runs from its TypeScript sources
 * (the tests), the worker imports its source through tsx, with the workspaces' `source` condition as Vitest has it:
 * its entry is a line of JavaScript that registers tsx first (hooks given by `--import` are not ready in time for
 * a worker's own entry).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_FILE = new URL(FROM_SOURCE ? './list-keeper-worker.ts' : './list-keeper-worker.js', import.meta.url);

function startThread(): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_FILE);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = `const { register } = await import(${tsx}); register(); await import(${JSON.stringify(WORKER_FILE.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(entry)}`), { execArgv: ['--conditions=source'] });
}
const IDLE_THREAD_MS = 15_000;

/** A request as sent, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = { resolve: (reply: KeeperReply) => void; reject: (error: Error) => void };

export function createListKeeper(): ListKeeper {
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let holding = false;
  const pending = new Map<number, Pending>();
  let nextId = 1;

  function start(): Worker {
    if (worker) return worker;
    const started = startThread();
    // The thread never keeps the process alive on its own: a server that stops, stops.
    started.unref();
    started.on('message', (reply: KeeperReply) => {
      holding = reply.holding;
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.resolve(reply);
      idleWhenDone();
    });
    started.on('error', (error) => stopped(error));
    started.on('exit', (code) => stopped(new Error(`the list keeper's thread exited (${code})`)));
    worker = started;
    return started;

    function stopped(error: Error): void {
      if (worker !== started) return;
      worker = undefined;
      holding = false;
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    }
  }

  function idleWhenDone(): void {
    clearTimeout(idleTimer);
    if (holding || pending.size > 0 || worker === undefined) return;
    const idle = worker;
    idleTimer = setTimeout(() => {
      if (worker === idle && !holding && pending.size === 0) {
        worker = undefined;
        void idle.terminate();
      }
    }, IDLE_THREAD_MS).unref();
  }

  function send(request: Unnumbered<KeeperRequest>, transfer: ArrayBuffer[] = []): Promise<KeeperReply> {
    clearTimeout(idleTimer);
    const thread = start();
    const id = nextId++;
    return new Promise<KeeperReply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      thread.postMessage({ ...request, id }, transfer);
    });
  }

  /** The request thread's side of a made list: held here when handed over whole, else asked of the thread. */
  function listOf(made: MadeList, thread: Worker | undefined): CatalogueList {
    const body = asBodyOfBuffers(made.body);
    if ('compact' in made) {
      const compact = made.compact;
      const ask: AskList = (kind, question) => Promise.resolve(answerQuestion(compact, kind, question));
      return catalogueList({ ...shapeOf(compact), body, ask });
    }
    const { listId, size, categories, categorySizes } = made;
    const ask: AskList = async (kind, question) => {
      // A list kept by a thread that has since stopped (it crashed) is gone with it; so is one a newer fill replaced.
      const reply =
        worker === thread ? await send({ op: 'ask', listId, kind, ask: question } as Unnumbered<KeeperRequest>) : { gone: true };
      if ('answer' in reply) return reply.answer as never;
      if ('gone' in reply) throw new UpstreamError('the product list was refilled while this answer was prepared; ask again');
      throw new Error(`the list keeper failed: ${'error' in reply ? reply.error : 'unexpected reply'}`);
    };
    return catalogueList({ size, categories, categorySizes, body, ask });
  }

  function fromReply(reply: KeeperReply, thread: Worker | undefined) {
    if ('error' in reply) throw new Error(`the list keeper failed: ${reply.error}`);
    if ('failed' in reply) return { ok: false as const, message: reply.failed, timedOut: reply.timedOut };
    if (!('made' in reply)) throw new Error('the list keeper answered a fill with something else');
    return { ok: true as const, list: listOf(reply.made, thread), dropped: reply.dropped };
  }

  return {
    async fill(request) {
      const reply = await send({ op: 'fill', ...request });
      return fromReply(reply, worker);
    },
    async load(json) {
      // A copy of its own (the reply to a Redis read may share Node's pool with other Buffers), moved to the thread.
      const own = new Uint8Array(json);
      const reply = await send({ op: 'load', json: own }, [own.buffer]);
      const result = fromReply(reply, worker);
      return result.ok ? result.list : undefined;
    },
    async close() {
      clearTimeout(idleTimer);
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}

/** A body whose buffers came from another thread as Uint8Arrays: the same memory, viewed as Buffers again. */
function asBodyOfBuffers(body: EncodedBody): EncodedBody {
  return {
    identity: asBuffer(body.identity),
    etag: body.etag,
    ...(body.gzip && { gzip: asBuffer(body.gzip) }),
    ...(body.br && { br: asBuffer(body.br) }),
  };
}
