import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { Logger } from '../../../logger.js';
import { inSpan, traceHeaders } from '../../../tracing/spans.js';
import { type CatalogueList, openList } from '../catalogue-list.js';
import { claimDataFolder } from '../data-folder.js';
import { type IdOrder, type ListFiles, listFilesIn, type Ordered, removeBodyFiles, removeListFiles } from '../list-files.js';
import type { UpstreamValidators } from '../../upstream/upstream-validators.js';
import { deathOf, fillDeaths, stalledDeath } from './fill-deaths.js';
import type { Dropped, FillJob, FillMessage, FillOutcome } from './protocol.js';

/**
 * A fill's result: a new list, owned by the caller (one hold: catalogue-list.ts); the list held unchanged (the
 * upstream's 304 to the validators sent); or a failure.
 */
export type Filled =
  | { ok: true; list: CatalogueList; dropped: Dropped; validators?: UpstreamValidators }
  | { ok: true; notModified: true }
  | { ok: false; message: string; timedOut: boolean };

/** A list written from a whole list's JSON, owned by the caller, or a failure: a copy is never "unchanged". */
export type Loaded = Exclude<Filled, { notModified: true }>;

/**
 * The product list's fills, each in a process of its own that writes a new SQLite file and exits
 * (docs/decisions/catalogue-in-sqlite.md): the request thread never waits on the writing, all the memory the fill
 * grew goes back to the system with the process, and the list is switched to only once its file is whole. A process
 * that stops before it replies is a failed fill, said in one line with its cause: the list held is served on.
 */
export interface ListFills {
  /**
   * Downloads the upstream's list into a new file, asking first whether the list held changed when `validators`
   * are given; `ok: false` with the message of the UpstreamError to throw when the upstream failed (refused, timed
   * out, past UPSTREAM_MAX_BYTES, not a JSON array) or the fill's process stopped.
   */
  fill(request: { url: string; timeoutMs: number; maxBytes: number; validators?: UpstreamValidators; refresh: boolean }): Promise<Filled>;
  /** A list from a whole list's JSON of valid products: a copy another replica shared, or the embedded catalogue's. */
  load(json: Buffer): Promise<Loaded>;
  close(): Promise<void>;
}

/** How long a fill's process may take to start and say its first word. */
const START_MAX_MS = 30_000;

/**
 * The shortest silence the sources take for a stall, whatever the upstream's limit: a fill's process yields to the
 * server's (fill-process.ts), so on a machine whose cores are all busy it may wait seconds for its turn, and that is
 * not a hang.
 */
export const FILL_SILENT_MIN_MS = 10_000;

export interface ListFillsOptions {
  logger: Logger;
  /** Where catalogue_fill_process_deaths_total is registered (the app's /metrics); none: not counted. */
  registry?: Registry;
  /** CATALOGUE_DATA_DIR; null: the OS temporary folder. This process writes in a folder of its own inside it. */
  dataDir: string | null;
  /**
   * How long a fill's process may go without a word once started (UPSTREAM_TIMEOUT_MS, at least FILL_SILENT_MIN_MS):
   * past it, it is stalled, and ended. Its own waits on the upstream are bounded by the upstream's limit, so only a
   * process that hangs runs this out.
   */
  silentMaxMs: number;
}

export function createListFills({ logger, registry, dataDir, silentMaxMs }: ListFillsOptions): ListFills {
  const died = fillDeaths(logger, registry);
  const filling = new Set<ChildProcess>();
  let folder: string | undefined;
  let nextList = 1;
  let closed = false;

  /** Where the next list is written: a folder of this process's own (data-folder.ts), made at its first fill. */
  function nextFiles() {
    folder ??= claimDataFolder(dataDir);
    return listFilesIn(join(folder, `list-${nextList++}`));
  }

  /**
   * Runs one fill in a process of its own, which exits once it has replied: the promise settles after it has
   * exited, so a fill never leaves a process behind.
   */
  function inItsOwnProcess(job: FillJob): Promise<FillOutcome> {
    const child = startFillProcess();
    filling.add(child);
    return new Promise<FillOutcome>((resolve, reject) => {
      let outcome: FillOutcome | undefined;
      let stalled = false;
      // Ended when it has said nothing for too long: a hung process would hold its files and a fill forever. Its start
      // (loading its modules on a busy machine) is given longer than a silence once it works.
      let watchdog = setTimeout(stall, Math.max(silentMaxMs, START_MAX_MS));
      function stall() {
        stalled = true;
        child.kill('SIGKILL');
      }
      child.on('message', (message: FillMessage) => {
        clearTimeout(watchdog);
        if (message === 'alive') watchdog = setTimeout(stall, silentMaxMs);
        else outcome = message;
      });
      // Its channel closed before it replied (it closed it, or it is dying): nothing more can come, so it is ended.
      child.once('disconnect', () => {
        if (outcome === undefined) child.kill('SIGKILL');
      });
      // Could not be started (no memory, too many processes): 'exit' may never come.
      child.once('error', (error) => {
        clearTimeout(watchdog);
        filling.delete(child);
        void cleanUp(job).then(() =>
          resolve({ failed: `the list's fill process could not be started: ${error.message}`, timedOut: false }),
        );
      });
      child.once('exit', (exitCode, signal) => {
        clearTimeout(watchdog);
        filling.delete(child);
        if (outcome !== undefined) return resolve(outcome);
        if (closed) return reject(new Error(`the list's fill process ended (${signal ?? exitCode}) as the server stopped`));
        const death = stalled ? stalledDeath(silentMaxMs) : deathOf(exitCode, signal);
        died(death, { exitCode, signal, pid: child.pid ?? null });
        // What it had begun writing: never opened, and removed here, since the process could not.
        void cleanUp(job).then(() => resolve({ failed: death.reason, timedOut: stalled }));
      });
      child.send(job);
    });
  }

  /** Writes a list's whole body in id order, from its database, in a process of its own (list-fill.ts's runOrder). */
  async function orderOf(files: ListFiles, order: IdOrder): Promise<Ordered> {
    const outcome = await inItsOwnProcess({ op: 'order', order, files });
    if ('ordered' in outcome) return { ok: true, etag: outcome.ordered };
    return { ok: false, message: 'failed' in outcome ? outcome.failed : 'the list in id order was not written' };
  }

  async function run(jobAt: (files: ListFiles) => FillJob): Promise<Filled> {
    let files: ListFiles;
    try {
      files = nextFiles();
    } catch (error) {
      // A folder that is missing, read-only or full: every fill fails alike, and says why in its one line.
      const where = dataDir ?? tmpdir();
      return {
        ok: false,
        message: `the catalogue's files cannot be written in ${where} (CATALOGUE_DATA_DIR): ${(error as Error).message}`,
        timedOut: false,
      };
    }
    const job = jobAt(files);
    const outcome = await inItsOwnProcess(job);
    if ('failed' in outcome) return { ok: false, message: outcome.failed, timedOut: outcome.timedOut };
    if ('notModified' in outcome) return { ok: true, notModified: true };
    if (!('made' in outcome)) throw new Error('a fill was replied to as an order job');
    let list: CatalogueList;
    try {
      list = await openList(outcome.made, { validators: outcome.validators, logger, writeInIdOrder: (order) => orderOf(files, order) });
    } catch (error) {
      // Written whole but unreadable (removed under us, a disk that lies): never served, and a failed fill like any other.
      await removeListFiles(outcome.made.files);
      return { ok: false, message: `the list's new files could not be opened: ${(error as Error).message}`, timedOut: false };
    }
    return { ok: true, list, dropped: outcome.dropped, ...(outcome.validators && { validators: outcome.validators }) };
  }

  return {
    // In a span when traces are on; the fill's process has no SDK, so it is handed the trace-context headers to send.
    fill: ({ url, timeoutMs, maxBytes, validators, refresh }) =>
      inSpan('list fill', { 'url.full': url }, () =>
        run((files) => ({
          op: 'fill',
          url,
          timeoutMs,
          maxBytes,
          traceHeaders: traceHeaders(),
          files,
          refresh,
          ...(validators && { validators }),
        })),
      ),
    // A copy of its own (the reply to a Redis read may share Node's pool with other Buffers) for the process.
    async load(json) {
      const loaded = await run((files) => ({ op: 'load', json: new Uint8Array(json), files }));
      // Only a fill sends validators, so only a fill can be answered "not modified".
      if ('notModified' in loaded) throw new Error('a copy was taken for an unchanged list');
      return loaded;
    },
    async close() {
      closed = true;
      // Each fill's process ended, and waited for: none outlives the server.
      await Promise.all(
        [...filling].map((child) => {
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          return exited;
        }),
      );
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * What a job that stopped half-way leaves is removed: a fill's whole folder, or an order job's body files (its list's
 * folder is the list's). Never rejects: the folder goes with this process's own at the latest.
 */
function cleanUp(job: FillJob): Promise<unknown> {
  const removing = job.op === 'order' ? removeBodyFiles(job.files, job.order) : removeListFiles(job.files);
  return removing.catch(() => undefined);
}

/**
 * Starts a fill's process from its entry beside this file: the built JavaScript in production. When the server
 * itself runs from its TypeScript files (the tests), the process imports its TypeScript through tsx, with the
 * workspaces' `source` export condition as Vitest has it. Its IPC channel carries the job and the outcome by the
 * structured clone (a shared copy's bytes stay bytes).
 */
function startFillProcess(): ChildProcess {
  const fromTypeScript = here.endsWith('.ts');
  const entry = new URL(`./fill-process${fromTypeScript ? '.ts' : '.js'}`, here);
  const execArgv = fromTypeScript ? ['--import', import.meta.resolve('tsx'), '--conditions=source'] : [];
  // Not the server's own flags (an inspector's port, the soak's measuring hook): only the memory caps NODE_OPTIONS carries.
  return fork(entry, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}
// Named, not written `new URL(…, import.meta.url)`: Vite rewrites that spelling into a URL from the project's root
// when the client's tests (a browser environment) load the server.
const here = import.meta.url;
