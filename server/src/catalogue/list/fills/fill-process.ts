/**
 * The process of one fill (list-fill.ts), started by list-fills.ts: it is sent its job, sends back what it made (the
 * files' names and the list's shape) and exits, so everything the fill grew (its V8 heap, SQLite's page cache and
 * sorters, the allocator's arenas) goes back to the system with it; a thread's exit left some 60 MB of that behind
 * in the server's process at 20,000 products.
 */
import { setPriority } from 'node:os';
import { ALIVE_EVERY_MS, type FillJob, type FillMessage, type FillOutcome } from './protocol.js';
import { runFill, runOrder } from './list-fill.js';

/** Tells the parent this process still works; a process blocked past the upstream's time limit is ended by it. */
const alive = () => process.send?.('alive' satisfies FillMessage);

process.once('message', (job: FillJob) => {
  // A refresh yields the processor to the server's: the list held is served meanwhile, and its seconds of parsing and
  // indexing on a core the event loop wants would stall those answers. Any other job is what visitors wait for (no
  // list is held yet, or a body is asked for), so it takes its turn as the server does: at the lowest priority, a
  // machine whose cores are busy starved it for its whole time limit, and answered them 504.
  if (job.op === 'fill' && job.refresh) setPriority(19);
  // Started: from here on a silence is a stall. Between the steps of a fill the event loop runs, and so does the beat;
  // the long synchronous steps call `alive` too.
  alive();
  const beat = setInterval(alive, ALIVE_EVERY_MS);
  void (job.op === 'order' ? runOrder(job, alive) : runFill(job, alive))
    // What the upstream did is a FillFailed already; this is the disk (full, past a file size limit) or a bug: a
    // failed fill all the same, said with its cause, its files removed by runFill.
    .catch((error: unknown): FillOutcome => ({ failed: `the list could not be written: ${String(error)}`, timedOut: false }))
    .then((outcome) => {
      clearInterval(beat);
      process.send?.(outcome satisfies FillMessage, () => process.exit(0));
    });
});

// The parent gone (it was killed, or closed the channel): nobody waits for this fill, and its files are the parent's
// to remove, or the next process's on this host (data-folder.ts).
process.once('disconnect', () => process.exit(0));
