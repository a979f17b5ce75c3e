/**
 * The list keeper's thread (list-keeper.ts): it keeps the large lists that fill threads made (list-fill.ts) and
 * answers the request thread's questions about them (compact-list.ts), so the request thread never holds or
 * rebuilds the products. It parses and validates only a small list (isSmallList in list-fill.ts: a few megabytes
 * of heap): starting a thread for each of those refills would cost more than the fill itself.
 */
import { parentPort } from 'node:worker_threads';
import { answerQuestion, type CompactList, type ListQuestion } from './compact-list.js';
import { type FillJob, type FillOutcome, runFill } from './list-fill.js';
import { movableBuffers } from './movable-buffers.js';

/*
 * This thread runs at the process's priority: it answers requests, and a visitor's search waits for it. What
 * stalled the request thread during a fill was the list rebuilt on its heap, which no longer happens.
 */

export type KeeperRequest =
  | { id: number; op: 'keep'; compact: CompactList }
  /** A fill starts: let go of every list but the newest. */
  | { id: number; op: 'trim' }
  /** A fill of a list expected to be small (the last one was). */
  | { id: number; op: 'fill'; job: FillJob }
  | ({ id: number; op: 'ask'; listId: number } & ListQuestion);

export type KeeperReply = { id: number; holding: boolean } & (
  | { kept: number }
  | { trimmed: true }
  | { filled: FillOutcome }
  | { answer: unknown }
  /** The list asked about was let go: a newer one replaced it. */
  | { gone: true }
  | { error: string }
);

/**
 * The lists kept: the newest and, while a fill runs and until the next one starts, the one it replaces (its answers
 * may still be being served). A fill lets go of every older one before it starts, so at most two are held.
 */
const kept = new Map<number, CompactList>();
let nextListId = 1;

async function handle(request: KeeperRequest): Promise<Omit<KeeperReply, 'id' | 'holding'>> {
  switch (request.op) {
    case 'fill':
      return { filled: await runFill(request.job) };
    case 'keep': {
      const listId = nextListId++;
      kept.set(listId, request.compact);
      return { kept: listId };
    }
    case 'trim': {
      const newest = Math.max(0, ...kept.keys());
      for (const listId of kept.keys()) if (listId !== newest) kept.delete(listId);
      return { trimmed: true };
    }
    case 'ask': {
      const list = kept.get(request.listId);
      if (list === undefined) return { gone: true };
      return { answer: answerQuestion(list, request.kind, request.ask as never) };
    }
  }
}

parentPort?.on('message', (request: KeeperRequest) => {
  void handle(request)
    .catch((error: unknown) => ({ error: String(error) }))
    .then((reply) => parentPort?.postMessage({ ...reply, id: request.id, holding: kept.size > 0 }, movableBuffers(reply)));
});
