/**
 * What a fill's process is started with and what it replies (fill-process.ts, list-fill.ts): plain data only, as a
 * message crosses processes by the structured clone, which keeps no class.
 */
import type { ListFiles, MadeList } from '../list-files.js';
import type { UpstreamValidators } from '../product-source.js';

/**
 * Download the upstream's list, or read a whole list's JSON of valid products (a copy another replica shared, the
 * embedded catalogue's), all or nothing. `files`: where the new list is written (none of them exists yet).
 * `traceHeaders`: the W3C trace context of the request thread's span (none while traces are off), sent as they are.
 */
export type FillJob = { files: ListFiles } & (
  { op: 'fill'; url: string; timeoutMs: number; maxBytes: number; traceHeaders: Record<string, string> } | { op: 'load'; json: Uint8Array }
);

/** The upstream's items that were not products, by their index in its array. */
export type Dropped = { index: number; issues: string }[];

export type FillOutcome =
  /** `validators`: the upstream's ETag and Last-Modified of the list downloaded, sent back by the next refill. */
  | { made: MadeList; dropped: Dropped; validators?: UpstreamValidators }
  /** The upstream failed (the UpstreamError's message: errors do not cross processes with their class), or a copy was invalid. */
  | FillFailed;

export type FillFailed = { failed: string; timedOut: boolean };
