import type { Worker } from 'node:worker_threads';
import type { Registry } from 'prom-client';
import type { EncodedBody } from '../../http/encoded-body.js';
import type { Logger } from '../../logger.js';
import { askedHere, asBuffer, type AskList, catalogueList, type CatalogueList, shapeOf } from '../catalogue-list.js';
import type { CompactList } from '../compact-list.js';
import { answerOf } from '../list-questions.js';
import type { UpstreamValidators } from '../product-source.js';
import { collectUntilFreed } from './full-collection.js';
import { isSmallList } from './list-fill.js';
import { movableBuffers } from './movable-buffers.js';
import { type Dropped, type FillJob, type FillOutcome, isReplyTo, type KeeperCalls, type KeeperOp, type KeeperReply } from './protocol.js';
import { startThread } from './start-thread.js';
import { deathOf, threadDeaths } from './thread-deaths.js';
import { inSpan, traceHeaders } from '../../tracing/spans.js';

/**
 * The product list's threads, supervised (docs/decisions/catalogue-off-the-request-thread.md). Each fill runs on a
 * thread of its own that exits when it is done (fill-thread.ts): parsing tens of megabytes of JSON grows a heap to
 * hundreds of megabytes, and only a thread's exit gives all of it back. What the fill made is typed arrays: a small
 * list's are moved to this thread, which then holds it whole; a large one's are shared memory, kept by the list
 * keeper's thread (keeper-thread.ts), which answers this thread's questions with the bytes of one answer.
 *
 * A thread that stops by itself is noticed at its exit. The keeper's questions in flight, and those asked until it is
 * back, are answered here from the same shared memory; it is restarted after 100 ms, twice as long after each death
 * in a row up to 30 s, and given the list again. A fill thread's death is a failed fill: the list held is served on.
 */
export interface ListKeeper {
  /**
   * Downloads, parses, validates and indexes the upstream's list; `ok: false` with the message of the
   * UpstreamError to throw when the upstream failed (refused, timed out, past UPSTREAM_MAX_BYTES, not a JSON array)
   * or the fill's thread stopped.
   */
  fill(request: {
    url: string;
    timeoutMs: number;
    maxBytes: number;
  }): Promise<
    { ok: true; list: CatalogueList; dropped: Dropped; validators?: UpstreamValidators } | { ok: false; message: string; timedOut: boolean }
  >;
  /** A list from the JSON of a copy another replica shared; undefined when the copy is not a valid list. */
  load(json: Buffer): Promise<CatalogueList | undefined>;
  close(): Promise<void>;
}

export interface ListKeeperOptions {
  logger: Logger;
  /** Where catalogue_list_thread_restarts_total is registered (the app's /metrics); none: not counted. */
  registry?: Registry;
}

const IDLE_THREAD_MS = 15_000;
const RESTART_FIRST_MS = 100;
const RESTART_MAX_MS = 30_000;
/** A keeper's thread that lived this long was healthy: its death starts the back-off again from RESTART_FIRST_MS. */
const HEALTHY_MS = 60_000;

/** The keeper's thread stopped before it answered. */
class ThreadStopped extends Error {}

export function createListKeeper({ logger, registry }: ListKeeperOptions): ListKeeper {
  const died = threadDeaths(logger, registry);
  let keeper: { worker: Worker; startedAt: number } | undefined;
  /** The large list served: kept by the keeper's thread, given to it again when it restarts. */
  let current: { listId: number; compact: CompactList } | undefined;
  const pending = new Map<number, (reply: KeeperReply | ThreadStopped) => void>();
  const filling = new Set<Worker>();
  let idleTimer: NodeJS.Timeout | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let deathsInARow = 0;
  let closed = false;
  let nextId = 1;
  let nextListId = 1;

  /** Whether the keeper's thread runs or may be started (not while a restart waits out its back-off). */
  const keeperAvailable = () => !closed && restartTimer === undefined;

  function startKeeper(): Worker {
    const worker = startThread('keeper-thread');
    // The thread never keeps the process alive on its own: a server that stops, stops.
    worker.unref();
    const started = { worker, startedAt: performance.now() };
    let failure: Error | undefined;
    worker.on('message', (reply: KeeperReply) => {
      const settle = pending.get(reply.id);
      pending.delete(reply.id);
      settle?.(reply);
      idleWhenDone();
    });
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      // A thread let go of (idle, closed) is no longer `keeper`: only one that stopped by itself is a death.
      if (keeper === started) keeperDied(started.startedAt, code, failure);
    });
    keeper = started;
    return worker;
  }

  function keeperDied(startedAt: number, exitCode: number, failure: Error | undefined): void {
    keeper = undefined;
    clearTimeout(idleTimer);
    const stopped = new ThreadStopped("the list keeper's thread stopped");
    for (const settle of pending.values()) settle(stopped);
    pending.clear();
    deathsInARow = performance.now() - startedAt >= HEALTHY_MS ? 1 : deathsInARow + 1;
    const restartInMs = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** (deathsInARow - 1));
    died('keeper', deathOf('keeper', exitCode, failure), { exitCode, restartInMs, deathsInARow });
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      // Without a large list there is nothing to give it: it starts again when it is next needed.
      if (current !== undefined && !closed) void keep(current);
    }, restartInMs).unref();
  }

  function idleWhenDone(): void {
    clearTimeout(idleTimer);
    if (current !== undefined || pending.size > 0 || keeper === undefined) return;
    const idle = keeper;
    idleTimer = setTimeout(() => {
      if (keeper === idle && current === undefined && pending.size === 0) {
        keeper = undefined;
        void idle.worker.terminate();
      }
    }, IDLE_THREAD_MS).unref();
  }

  function send<Op extends KeeperOp>(
    op: Op,
    request: KeeperCalls[Op]['request'],
    transfer: ArrayBuffer[] = [],
  ): Promise<KeeperCalls[Op]['reply']> {
    clearTimeout(idleTimer);
    const worker = keeper?.worker ?? startKeeper();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, (reply) => {
        if (reply instanceof ThreadStopped) reject(reply);
        else if (isReplyTo(reply, op)) resolve(reply.reply);
        else reject(new Error(`the list keeper failed: ${reply.op === 'failed' ? reply.error : `a ${op} was answered as ${reply.op}`}`));
      });
      worker.postMessage({ id, op, ...request }, transfer);
    });
  }

  async function keep(list: { listId: number; compact: CompactList }): Promise<void> {
    // Not kept (the thread stopped meanwhile): its restart keeps `current`, and questions are answered here till then.
    await send('keep', list).catch((error: unknown) => {
      if (!(error instanceof ThreadStopped)) throw error;
    });
  }

  /** A large list's questions: asked of the keeper's thread while it keeps that list, else answered here. */
  function askKept(listId: number, compact: CompactList): AskList {
    return async (question) => {
      if (current?.listId === listId && keeper !== undefined) {
        try {
          const reply = await send('ask', { listId, question });
          if ('answer' in reply) return reply.answer;
        } catch (error) {
          if (!(error instanceof ThreadStopped)) throw error;
        }
      }
      // Its thread stopped (a restart is on its way), or a newer list replaced it there: the same shared memory, here.
      return answerOf(compact, question);
    };
  }

  /** A small list is held here whole; a large one is kept by the keeper's thread and asked there. */
  async function listOf(compact: CompactList, body: EncodedBody): Promise<CatalogueList> {
    const made = { ...shapeOf(compact), body: asBodyOfBuffers(body) };
    if (isSmallList(compact.json.byteLength)) {
      // The keeper's thread keeps no list now: it may exit once idle.
      current = undefined;
      return catalogueList({ ...made, ask: tracedAsk(askedHere(compact), false) });
    }
    current = { listId: nextListId++, compact };
    if (keeperAvailable()) await keep(current);
    // Once replaced, this thread's hold on its shared memory and its encoded bodies goes as soon as nothing answers
    // from it: left to V8, it stays until some later collection (full-collection.ts), a list more after each refill.
    const { body: held } = made;
    const letGo = () => collectUntilFreed([compact, ...[held.identity, held.gzip, held.br].flatMap((bytes) => bytes ?? [])]);
    return catalogueList({ ...made, ask: tracedAsk(askKept(current.listId, compact), true), letGo });
  }

  /**
   * Whether the last list made was small (handed to the request thread whole). Its refills then run on the keeper's
   * thread: a thread of their own would cost more to start than the fill (some 300 ms against a few for 20
   * products), at every refill, and at every request with CACHE_TTL_SECONDS=0. The first fill, and any after a large
   * list, run on a thread of their own, whose heap goes back to the system when it exits.
   */
  let lastListSmall = false;

  async function fillOnTheKeeper(job: FillJob): Promise<FillOutcome> {
    if (!keeperAvailable()) return fillOnItsOwnThread(job);
    try {
      return await send('fill', { job }, movableBuffers(job));
    } catch (error) {
      // A download is tried again on a thread of its own; a copy's bytes went with the thread that stopped.
      if (!(error instanceof ThreadStopped)) throw error;
      return job.op === 'fill' ? fillOnItsOwnThread(job) : { failed: error.message, timedOut: false };
    }
  }

  /**
   * Runs one fill on a thread of its own and ends the thread once it has answered: the promise settles after the
   * thread has exited, so a fill never leaves a thread behind. A thread that stops before it answers is a failed
   * fill, said in one line with its cause.
   */
  function fillOnItsOwnThread(job: FillJob): Promise<FillOutcome> {
    const thread = startThread('fill-thread');
    thread.postMessage(job, movableBuffers(job));
    thread.unref();
    filling.add(thread);
    return new Promise<FillOutcome>((resolve, reject) => {
      let outcome: FillOutcome | undefined;
      let failure: Error | undefined;
      thread.once('message', (message: FillOutcome) => {
        outcome = message;
        void thread.terminate();
      });
      thread.once('error', (error) => (failure = error));
      thread.once('exit', (exitCode) => {
        filling.delete(thread);
        if (outcome !== undefined) return resolve(outcome);
        if (closed) return reject(new Error(`the list's fill thread exited (${exitCode}) as the server stopped`));
        const death = deathOf('fill', exitCode, failure);
        died('fill', death, { exitCode });
        resolve({ failed: death.reason, timedOut: false });
      });
    });
  }

  async function run(job: FillJob) {
    const outcome = lastListSmall ? await fillOnTheKeeper(job) : await fillOnItsOwnThread(job);
    if ('failed' in outcome) return { ok: false as const, message: outcome.failed, timedOut: outcome.timedOut };
    lastListSmall = isSmallList(outcome.made.compact.json.byteLength);
    const list = await listOf(outcome.made.compact, outcome.made.body);
    return { ok: true as const, list, dropped: outcome.dropped, ...(outcome.validators && { validators: outcome.validators }) };
  }

  return {
    // In a span when traces are on; the fill's thread has no SDK, so it is handed the trace-context headers to send.
    fill: ({ url, timeoutMs, maxBytes }) =>
      inSpan('list fill', { 'url.full': url, 'catalogue.list.on_keeper_thread': lastListSmall }, () =>
        run({ op: 'fill', url, timeoutMs, maxBytes, traceHeaders: traceHeaders() }),
      ),
    async load(json) {
      // A copy of its own (the reply to a Redis read may share Node's pool with other Buffers), moved to the thread.
      const result = await run({ op: 'load', json: new Uint8Array(json) });
      return result.ok ? result.list : undefined;
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      clearTimeout(restartTimer);
      const stopping = keeper;
      keeper = undefined;
      await Promise.all([stopping?.worker.terminate(), ...[...filling].map((thread) => thread.terminate())]);
    },
  };
}

/** Each question about the list in a span of its own when traces are on, saying which kind of list answered it. */
function tracedAsk(ask: AskList, large: boolean): AskList {
  return (question) =>
    inSpan('list question', { 'catalogue.list.question': question.kind, 'catalogue.list.large': large }, () => ask(question));
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
