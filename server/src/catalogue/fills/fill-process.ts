/**
 * The process of one fill (list-fill.ts), started by list-fills.ts: it is sent its job, sends back what it made (the
 * files' names and the list's shape) and exits, so everything the fill grew (its V8 heap, SQLite's page cache and
 * sorters, the allocator's arenas) goes back to the system with it; a thread's exit left some 60 MB of that behind
 * in the server's process at 20,000 products.
 */
import { setPriority } from 'node:os';
import type { FillJob, FillOutcome } from './protocol.js';
import { runFill } from './list-fill.js';

// This process yields the processor to the server's: it answers no visitor, and a fill's seconds of parsing and
// indexing on a core the event loop wants would stall the answers served meanwhile.
setPriority(19);

process.once('message', (job: FillJob) => {
  void runFill(job)
    // What the upstream did is a FillFailed already; this is the disk (full, past a file size limit) or a bug: a
    // failed fill all the same, said with its cause, its files removed by runFill.
    .catch((error: unknown): FillOutcome => ({ failed: `the list could not be written: ${String(error)}`, timedOut: false }))
    .then((outcome) => process.send?.(outcome, () => process.exit(0)));
});
