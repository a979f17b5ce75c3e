/**
 * A full garbage collection of this thread's heap, run where the list's code knows that a large list's memory has
 * just become garbage (docs/decisions/memory.md, "A large catalogue"). V8 cannot see it: a list's
 * JSON and columns are shared memory and its encoded bodies moved buffers, tens of megabytes held by a few small
 * objects on heaps of a few megabytes. V8 counts that memory when the buffers arrive, while the list they replace is
 * still served, and nothing on those small heaps asks for a collection after that. Left to V8, each list replaced
 * stayed resident until the next refill or later: at 200,000 products RSS grew 378 → 560 → 718 MB over two refills,
 * one list more each time; collected here, the same two refills leave it at 365 → 385 → 379 MB.
 *
 * V8 gives its collector to JavaScript only under `--expose-gc`. Rather than ask every way of starting the server
 * (npm start, the container, an orchestrator's own NODE_OPTIONS) for that flag, the flag is set only while the
 * function is taken from a new context, so no `gc` appears on this thread's global or any other's. Node's own
 * `--expose-gc` (the soak's measuring hook runs the server with it) is used as it is.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Taken at the first collection: a server that never holds a large list never sets the flag. */
let collector: (() => void) | undefined;

function exposedCollector(): (() => void) | undefined {
  const exposed: unknown = Reflect.get(globalThis, 'gc');
  return typeof exposed === 'function' ? () => void Reflect.apply(exposed, globalThis, []) : undefined;
}

function takenCollector(): () => void {
  let taken: unknown;
  try {
    setFlagsFromString('--expose-gc');
    taken = runInNewContext('gc');
    setFlagsFromString('--no-expose-gc');
  } catch {
    // A Node that no longer lets flags change once started: see below.
  }
  // Without a collector the memory is freed at V8's own pace, as it was before; nothing else depends on it.
  return typeof taken === 'function' ? () => void Reflect.apply(taken, undefined, []) : () => {};
}

/** Collects now: for a thread about to allocate much more (a fill, before it compresses the list it made). */
export function collectGarbage(): void {
  collector ??= exposedCollector() ?? takenCollector();
  collector();
}

let scheduled = false;

/**
 * Collects once the current work is done (after the messages and callbacks already queued), so what the stack
 * still holds is garbage by then; several asks before it runs make one collection.
 */
export function collectGarbageSoon(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    collectGarbage();
  }).unref();
}

const RETRY_FIRST_MS = 1_000;
const RETRY_LAST_MS = 64_000;

/**
 * Collects soon, and again while any of `values` is still alive: a request in flight when a list is replaced may
 * still be answering from it (a stale answer being sent, a question on its way), and then the first collection frees
 * nothing. Again after 1 s, then twice as long each time; past a minute, V8's own collections take over.
 */
export function collectUntilFreed(values: readonly object[]): void {
  const alive = values.map((value) => new WeakRef(value));
  let retryInMs = RETRY_FIRST_MS;
  const attempt = () => {
    collectGarbage();
    if (alive.every((ref) => ref.deref() === undefined) || retryInMs > RETRY_LAST_MS) return;
    setTimeout(attempt, retryInMs).unref();
    retryInMs *= 2;
  };
  setImmediate(attempt).unref();
}
