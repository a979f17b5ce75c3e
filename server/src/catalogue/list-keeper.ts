import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { EncodedBody } from '../http/encoded-body.js';
import { asBuffer, type AskList, catalogueList, type CatalogueList, shapeOf } from './catalogue-list.js';
import { answerQuestion, type CompactList } from './compact-list.js';
import { type Dropped, type FillJob, type FillOutcome, isSmallList } from './list-fill.js';
import type { KeeperReply, KeeperRequest } from './list-keeper-worker.js';
import { movableBuffers } from './movable-buffers.js';
import { UpstreamError } from './product-source.js';

/**
 * The product list's threads (docs/decisions/catalogue-off-the-request-thread.md). Each fill runs on a thread of its
 * own that exits when it is done (list-fill-worker.ts): parsing tens of megabytes of JSON and validating every
 * product grows a heap to hundreds of megabytes, and only a thread's exit gives all of it back. What the fill made
 * (typed arrays and bytes, list-fill.ts) is moved, not copied: a small list to this thread, which then holds it
 * whole; a large one on to the list keeper's thread (list-keeper-worker.ts), which keeps it and answers this
 * thread's questions with the bytes of one answer. Fills are rare (once per TTL, one at a time per key,
 * read-through-cache.ts). While it keeps no list the keeper's thread exits after a while.
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
  }): Promise<{ ok: true; list: CatalogueList; dropped: Dropped } | { ok: false; message: string; timedOut: boolean }>;
  /** A list from the JSON of a copy another replica shared; undefined when the copy is not a valid list. */
  load(json: Buffer): Promise<CatalogueList | undefined>;
  close(): Promise<void>;
}

/**
 * The workers run the built JavaScript next to this file; when the server itself runs from its TypeScript sources
 * (the tests), a worker imports its source through tsx, with the workspaces' `source` condition as Vitest has it:
 * its entry is a line of JavaScript that registers tsx first (hooks given by `--import` are not ready in time for
 * a worker's own entry).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
// Named, not written `new URL(…, import.meta.url)`: Vite rewrites that spelling into a URL from the project's root
// when the client's tests (a browser environment) load the server, which a worker cannot import.
const here = import.meta.url;
const workerFile = (name: string) => new URL(`./${name}${FROM_SOURCE ? '.ts' : '.js'}`, here);
const KEEPER_FILE = workerFile('list-keeper-worker');
const FILL_FILE = workerFile('list-fill-worker');

function startThread(file: URL, options: WorkerOptions = {}): Worker {
  if (!FROM_SOURCE) return new Worker(file, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = `const { register } = await import(${tsx}); register(); await import(${JSON.stringify(file.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(entry)}`), { ...options, execArgv: ['--conditions=source'] });
}
const IDLE_THREAD_MS = 15_000;

/** A request as sent, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = { resolve: (reply: KeeperReply) => void; reject: (error: Error) => void };

/**
 * Runs one fill on a thread of its own and ends the thread once it has answered (or failed): the promise settles
 * after the thread has exited, so a fill never leaves a thread behind.
 */
function fillOnItsOwnThread(job: FillJob, running: Set<Worker>): Promise<FillOutcome> {
  const thread = startThread(FILL_FILE, { workerData: job, transferList: movableBuffers(job) });
  // The thread never keeps the process alive on its own: a server that stops, stops.
  thread.unref();
  running.add(thread);
  return new Promise<FillOutcome>((resolve, reject) => {
    let outcome: FillOutcome | undefined;
    let failure: Error | undefined;
    thread.once('message', (message: FillOutcome) => {
      outcome = message;
      void thread.terminate();
    });
    thread.once('error', (error) => {
      failure = error;
    });
    thread.once('exit', (code) => {
      running.delete(thread);
      if (outcome !== undefined) resolve(outcome);
      else reject(failure ?? new Error(`the list's fill thread exited (${code}) before it answered`));
    });
  });
}

export function createListKeeper(): ListKeeper {
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let holding = false;
  const pending = new Map<number, Pending>();
  const filling = new Set<Worker>();
  let nextId = 1;

  function start(): Worker {
    if (worker) return worker;
    const started = startThread(KEEPER_FILE);
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

  /** A small list is held here whole; a large one is moved to the keeper's thread and asked there. */
  async function listOf(compact: CompactList, body: EncodedBody): Promise<CatalogueList> {
    const shape = shapeOf(compact);
    const ownBody = asBodyOfBuffers(body);
    if (isSmallList(compact.json.byteLength)) {
      const ask: AskList = (kind, question) => Promise.resolve(answerQuestion(compact, kind, question));
      return catalogueList({ ...shape, body: ownBody, ask });
    }
    const reply = await send({ op: 'keep', compact }, movableBuffers(compact));
    if (!('kept' in reply)) throw new Error(`the list keeper failed: ${'error' in reply ? reply.error : 'unexpected reply'}`);
    const listId = reply.kept;
    const thread = worker;
    const ask: AskList = async (kind, question) => {
      // A list kept by a thread that has since stopped (it crashed) is gone with it; so is one a newer fill replaced.
      const answered =
        worker === thread ? await send({ op: 'ask', listId, kind, ask: question } as Unnumbered<KeeperRequest>) : { gone: true };
      if ('answer' in answered) return answered.answer as never;
      if ('gone' in answered) throw new UpstreamError('the product list was refilled while this answer was prepared; ask again');
      throw new Error(`the list keeper failed: ${'error' in answered ? answered.error : 'unexpected reply'}`);
    };
    return catalogueList({ ...shape, body: ownBody, ask });
  }

  /**
   * Whether the last list made was small (handed to the request thread whole). Its refills then run on the keeper's
   * thread: a thread of their own would cost more to start than the fill (some 300 ms against a few for 20
   * products), at every refill, and at every request with CACHE_TTL_SECONDS=0. The first fill, and any after a large
   * list, run on a thread of their own, whose heap goes back to the system when it exits.
   */
  let lastListSmall = false;

  async function fillOnTheKeeper(job: FillJob): Promise<FillOutcome> {
    const reply = await send({ op: 'fill', job }, movableBuffers(job));
    if ('filled' in reply) return reply.filled;
    throw new Error(`the list keeper failed: ${'error' in reply ? reply.error : 'unexpected reply'}`);
  }

  async function run(job: FillJob) {
    // A fill is starting: the keeper lets go of every list but the one served, so it holds at most two.
    if (worker !== undefined) await send({ op: 'trim' });
    const outcome = lastListSmall ? await fillOnTheKeeper(job) : await fillOnItsOwnThread(job, filling);
    if ('failed' in outcome) return { ok: false as const, message: outcome.failed, timedOut: outcome.timedOut };
    lastListSmall = isSmallList(outcome.made.compact.json.byteLength);
    return { ok: true as const, list: await listOf(outcome.made.compact, outcome.made.body), dropped: outcome.dropped };
  }

  return {
    fill: ({ url, timeoutMs, maxBytes }) => run({ op: 'fill', url, timeoutMs, maxBytes }),
    async load(json) {
      // A copy of its own (the reply to a Redis read may share Node's pool with other Buffers), moved to the thread.
      const result = await run({ op: 'load', json: new Uint8Array(json) });
      return result.ok ? result.list : undefined;
    },
    async close() {
      clearTimeout(idleTimer);
      const stopping = worker;
      worker = undefined;
      await Promise.all([stopping?.terminate(), ...[...filling].map((thread) => thread.terminate())]);
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
