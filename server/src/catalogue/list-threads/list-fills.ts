import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { Logger } from '../../logger.js';
import { inSpan, traceHeaders } from '../../tracing/spans.js';
import { type CatalogueList, openList } from '../catalogue-list.js';
import { claimDataFolder } from '../data-folder.js';
import { listFilesAt, removeListFiles } from '../list-files.js';
import type { UpstreamValidators } from '../product-source.js';
import type { Dropped, FillJob, FillOutcome } from './protocol.js';
import { startThread } from './start-thread.js';
import { deathOf, fillDeaths } from './thread-deaths.js';

export type Filled =
  { ok: true; list: CatalogueList; dropped: Dropped; validators?: UpstreamValidators } | { ok: false; message: string; timedOut: boolean };

/**
 * The product list's fills, each on a thread of its own that writes a new SQLite file and exits
 * (docs/decisions/catalogue-in-sqlite.md): the request thread never waits on the writing, the heap that parsing
 * grew goes back to the system with the thread, and the list is switched to only once its file is whole. A thread
 * that stops before it answers is a failed fill, said in one line with its cause: the list held is served on.
 */
export interface ListFills {
  /**
   * Downloads the upstream's list into a new file; `ok: false` with the message of the UpstreamError to throw when
   * the upstream failed (refused, timed out, past UPSTREAM_MAX_BYTES, not a JSON array) or the fill's thread stopped.
   */
  fill(request: { url: string; timeoutMs: number; maxBytes: number }): Promise<Filled>;
  /** A list from a whole list's JSON of valid products: a copy another replica shared, or the embedded catalogue's. */
  load(json: Buffer): Promise<Filled>;
  close(): Promise<void>;
}

export interface ListFillsOptions {
  logger: Logger;
  /** Where catalogue_list_thread_restarts_total is registered (the app's /metrics); none: not counted. */
  registry?: Registry;
  /** CATALOGUE_DATA_DIR; null: the OS temporary folder. This process writes in a folder of its own inside it. */
  dataDir: string | null;
  /** How long a list let go of stays open before its files are removed (catalogue-list.ts's CLOSE_AFTER_MS). */
  closeAfterMs?: number;
}

export function createListFills({ logger, registry, dataDir, closeAfterMs }: ListFillsOptions): ListFills {
  const died = fillDeaths(logger, registry);
  const filling = new Set<ReturnType<typeof startThread>>();
  let folder: string | undefined;
  let nextList = 1;
  let closed = false;

  /** Where the next list is written: a folder of this process's own (data-folder.ts), made at its first fill. */
  function nextFiles() {
    folder ??= claimDataFolder(dataDir);
    return listFilesAt(join(folder, `list-${nextList++}`));
  }

  /**
   * Runs one fill on a thread of its own and ends the thread once it has answered: the promise settles after the
   * thread has exited, so a fill never leaves a thread behind.
   */
  function onItsOwnThread(job: FillJob): Promise<FillOutcome> {
    const thread = startThread('fill-thread');
    thread.postMessage(job);
    thread.unref();
    filling.add(thread);
    return new Promise<FillOutcome>((resolve, reject) => {
      let outcome: FillOutcome | undefined;
      let failure: Error | undefined;
      thread.once('message', (message: FillOutcome) => {
        outcome = message;
        void thread.terminate();
      });
      thread.once('error', (error: Error) => (failure = error));
      thread.once('exit', (exitCode) => {
        filling.delete(thread);
        if (outcome !== undefined) return resolve(outcome);
        if (closed) return reject(new Error(`the list's fill thread exited (${exitCode}) as the server stopped`));
        const death = deathOf(exitCode, failure);
        died(death, { exitCode });
        // What it had begun writing: never opened, and removed here, since the thread could not.
        void removeListFiles(job.files).then(() => resolve({ failed: death.reason, timedOut: false }));
      });
    });
  }

  async function run(job: FillJob): Promise<Filled> {
    const outcome = await onItsOwnThread(job);
    if ('failed' in outcome) return { ok: false, message: outcome.failed, timedOut: outcome.timedOut };
    let list: CatalogueList;
    try {
      list = await openList(outcome.made, closeAfterMs);
    } catch (error) {
      // Written whole but unreadable (removed under us, a disk that lies): never served, and a failed fill like any other.
      await removeListFiles(outcome.made.files);
      return { ok: false, message: `the list's new files could not be opened: ${(error as Error).message}`, timedOut: false };
    }
    return { ok: true, list, dropped: outcome.dropped, ...(outcome.validators && { validators: outcome.validators }) };
  }

  return {
    // In a span when traces are on; the fill's thread has no SDK, so it is handed the trace-context headers to send.
    fill: ({ url, timeoutMs, maxBytes }) =>
      inSpan('list fill', { 'url.full': url }, () =>
        run({ op: 'fill', url, timeoutMs, maxBytes, traceHeaders: traceHeaders(), files: nextFiles() }),
      ),
    // A copy of its own (the reply to a Redis read may share Node's pool with other Buffers) for the thread.
    load: (json) => run({ op: 'load', json: new Uint8Array(json), files: nextFiles() }),
    async close() {
      closed = true;
      await Promise.all([...filling].map((thread) => thread.terminate()));
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    },
  };
}
