/**
 * The thread of one fill (list-fill.ts): it is sent its job, posts what it made (the files' names and the list's
 * shape) and is then ended by the thread that started it (list-fills.ts), its whole heap with it.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { runFill } from './list-fill.js';
import type { FillJob, FillOutcome } from './protocol.js';

/**
 * This thread yields the processor to the event loop: it answers no visitor, and a fill's seconds of parsing on a core the event loop wants stall the
 * answers served meanwhile. On Linux a thread's nice value is its own, so the lowest priority here leaves the
 * request thread's as it is. Elsewhere, or where /proc is not mounted, the thread runs at the process's priority.
 */
function yieldToTheEventLoop(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isSafeInteger(threadId)) setPriority(threadId, 19);
  } catch {
    // Not Linux: nothing to do.
  }
}
yieldToTheEventLoop();

parentPort?.once('message', (job: FillJob) => {
  void runFill(job)
    // What the upstream did is a FillFailed already; this is the disk (full, past a file size limit) or a bug: a
    // failed fill all the same, said with its cause, its files removed by runFill.
    .catch((error: unknown): FillOutcome => ({ failed: `the list could not be written: ${String(error)}`, timedOut: false }))
    .then((outcome: FillOutcome) => parentPort?.postMessage(outcome));
});
