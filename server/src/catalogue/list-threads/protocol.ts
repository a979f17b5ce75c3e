/**
 * Everything the list's threads say to each other (docs/decisions/catalogue-off-the-request-thread.md): the job a
 * fill thread is started with and what it answers (fill-thread.ts), and the request thread's calls to the list
 * keeper's thread (keeper-thread.ts), each reply typed by the call it answers. Plain data and typed arrays only:
 * a message crosses threads by the structured clone, which keeps no class.
 */
import type { EncodedBody } from '../../http/encoded-body.js';
import type { CompactList } from '../compact-list.js';
import type { ListAnswer, ListQuestion } from '../list-questions.js';
import type { UpstreamValidators } from '../product-source.js';

/**
 * Download the upstream's list, or read a copy another replica shared. `traceHeaders`: the W3C trace context of the
 * request thread's span (none while traces are off), sent to the upstream as they are.
 */
export type FillJob =
  { op: 'fill'; url: string; timeoutMs: number; maxBytes: number; traceHeaders: Record<string, string> } | { op: 'load'; json: Uint8Array };

/** The upstream's items that were not products, by their index in its array. */
export type Dropped = { index: number; issues: string }[];

export type FillOutcome =
  /** `validators`: the upstream's ETag and Last-Modified of the list downloaded, sent back by the next refill. */
  | { made: { compact: CompactList; body: EncodedBody }; dropped: Dropped; validators?: UpstreamValidators }
  /** The upstream failed (the UpstreamError's message: errors do not cross threads with their class), or a copy was invalid. */
  | FillFailed;

export type FillFailed = { failed: string; timedOut: boolean };

/** The keeper's calls: what each is asked with, and what it answers. */
export interface KeeperCalls {
  /** Keep this list (its columns are shared memory), letting go of the one kept before. */
  keep: { request: { listId: number; compact: CompactList }; reply: { kept: number } };
  /** A fill of a list expected to be small (the last one was), on the keeper's thread. */
  fill: { request: { job: FillJob }; reply: FillOutcome };
  /** A question about the list kept; `notHeld` when the list kept is another (a newer one replaced it). */
  ask: { request: { listId: number; question: ListQuestion }; reply: { answer: ListAnswer } | { notHeld: true } };
}
export type KeeperOp = keyof KeeperCalls;

export type RequestOf<Op extends KeeperOp> = { id: number; op: Op } & KeeperCalls[Op]['request'];
export type ReplyOf<Op extends KeeperOp> = { id: number; op: Op; reply: KeeperCalls[Op]['reply'] };

export type KeeperRequest = { [Op in KeeperOp]: RequestOf<Op> }[KeeperOp];
/** A reply to the call with the same id, or the call's failure (an error thrown on the keeper's thread). */
export type KeeperReply = { [Op in KeeperOp]: ReplyOf<Op> }[KeeperOp] | { id: number; op: 'failed'; error: string };

/** Whether a reply is one to this kind of call. */
export function isReplyTo<Op extends KeeperOp>(reply: KeeperReply, op: Op): reply is Extract<KeeperReply, ReplyOf<Op>> {
  return reply.op === op;
}
