/**
 * What a fill's process is started with and what it sends back (fill-process.ts, list-fill.ts): plain data only, as a
 * message crosses processes by the structured clone, which keeps no class.
 */
import type { IdOrder, ListFiles, MadeList } from '../list-files.js';
import type { UpstreamValidators } from '../../upstream/upstream-validators.js';

/**
 * Download the upstream's list, or read a whole list's JSON of valid products (a copy another replica shared, the
 * embedded catalogue's), all or nothing. `files`: where the new list is written (its folder, empty).
 * `traceHeaders`: the W3C trace context of the request thread's span (none while traces are off), sent as they are.
 * `validators`: what the upstream said of the list held, if one is: the request is then conditional.
 * `refresh`: a list is held and served meanwhile, so the fill yields the processor to the server's (fill-process.ts).
 */
export type FillJob = { files: ListFiles } & (
  | {
      op: 'fill';
      url: string;
      timeoutMs: number;
      maxBytes: number;
      traceHeaders: Record<string, string>;
      validators?: UpstreamValidators;
      refresh: boolean;
    }
  | { op: 'load'; json: Uint8Array }
  /** Write the whole list in id order from the list's database (which exists, finished) into its body's files. */
  | { op: 'order'; order: IdOrder }
);

/** The upstream's items that were not products, by their index in its array. */
export type Dropped = { index: number; issues: string }[];

export type FillOutcome =
  /** `validators`: the upstream's ETag and Last-Modified of the list downloaded, sent back by the next refill. */
  | { made: MadeList; dropped: Dropped; validators?: UpstreamValidators }
  | NotModified
  /** An `order` job's body written: its ETag. */
  | { ordered: string }
  /** The upstream failed (the UpstreamError's message: errors do not cross processes with their class), or a copy was invalid. */
  | FillFailed;

/** The upstream answered `304` to the validators sent: the list held is still its list, and nothing was written. */
export type NotModified = { notModified: true };

export type FillFailed = { failed: string; timedOut: boolean };

/**
 * What a fill's process sends: `alive` now and then while it works (the parent ends a process silent for longer
 * than the upstream's time limit), then its outcome, once.
 */
export type FillMessage = 'alive' | FillOutcome;

/** How often a working fill says it is alive. */
export const ALIVE_EVERY_MS = 200;
