/**
 * The list keeper's thread (list-keeper.ts): it keeps the large list that a fill thread made (list-fill.ts) and
 * answers the request thread's questions about it (list-questions.ts), so the request thread never spends a search's
 * milliseconds. It parses and validates only a small list (isSmallList in list-fill.ts: a few megabytes of heap):
 * starting a thread for each of those refills would cost more than the fill itself.
 *
 * This thread runs at the process's priority: it answers requests, and a visitor's search waits for it.
 */
import { parentPort } from 'node:worker_threads';
import type { CompactList } from '../compact-list.js';
import { answerOf } from '../list-questions.js';
import { collectGarbageSoon } from './full-collection.js';
import { runFill } from './list-fill.js';
import { movableBuffers } from './movable-buffers.js';
import type { KeeperReply, KeeperRequest } from './protocol.js';

/**
 * The one list kept. Its columns are memory every thread shares: letting go of it here frees nothing the request
 * thread still serves, and a list that a newer one replaced is answered there (list-keeper.ts).
 */
let kept: { listId: number; compact: CompactList } | undefined;

async function handle(request: KeeperRequest): Promise<KeeperReply> {
  const { id } = request;
  switch (request.op) {
    case 'fill':
      return { id, op: 'fill', reply: await runFill(request.job) };
    case 'keep':
      // The list replaced is garbage here now, and its memory is freed once no thread holds it (full-collection.ts).
      if (kept !== undefined) collectGarbageSoon();
      kept = { listId: request.listId, compact: request.compact };
      return { id, op: 'keep', reply: { kept: request.listId } };
    case 'ask': {
      if (kept?.listId !== request.listId) return { id, op: 'ask', reply: { notHeld: true } };
      return { id, op: 'ask', reply: { answer: answerOf(kept.compact, request.question) } };
    }
  }
}

parentPort?.on('message', (request: KeeperRequest) => {
  void handle(request)
    .catch((error: unknown): KeeperReply => ({ id: request.id, op: 'failed', error: String(error) }))
    .then((reply) => parentPort?.postMessage(reply, movableBuffers(reply)));
});
