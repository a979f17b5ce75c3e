/**
 * The list keeper's thread (list-keeper.ts): it fills the product list (download the upstream's body, tens of
 * megabytes for a large catalogue; parse; validate every product; build the compact list and its indexes; encode the
 * public body), or loads a copy another replica shared, and then keeps a large list and answers the request
 * thread's questions about it (compact-list.ts), so the request thread never holds or rebuilds the products.
 */
import { parentPort } from 'node:worker_threads';
import type { Product } from '@catalogue/shared/product';
import { type EncodedBody, encodeBody } from '../http/encoded-body.js';
import { type CatalogueList, shapeOf } from './catalogue-list.js';
import { answerQuestion, buildCompactList, type CompactList, type ListQuestion } from './compact-list.js';
import { describeProductIssues, productSchema, productsOfCopy } from './product-schema.js';
import { UpstreamError } from './product-source.js';
import { createUpstreamClient, isSuccess, type UpstreamClient } from './upstream-request.js';

/*
 * This thread runs at the process's priority, unlike the fill thread before it (which had the lowest): it answers
 * requests now, and a visitor's search waits for it. What stalled the request thread during a fill was the list
 * rebuilt on its heap, which no longer happens; a fill's work on another core does not stall it.
 */

/**
 * A list whose JSON is at most this big is handed to the request thread whole (some 2,000 products): holding it
 * there costs a few megabytes and spares every question a trip between threads. A bigger one is kept here.
 */
export const HANDED_OVER_MAX_BYTES = 1024 * 1024;

export type KeeperRequest =
  | { id: number; op: 'fill'; url: string; timeoutMs: number; maxBytes: number }
  | { id: number; op: 'load'; json: Uint8Array }
  | ({ id: number; op: 'ask'; listId: number } & ListQuestion);

/** A list made here: handed over whole (`compact`), or kept here under `listId`. */
export type MadeList = { body: EncodedBody } & (
  { compact: CompactList } | ({ listId: number } & Pick<CatalogueList, 'size' | 'categories' | 'categorySizes'>)
);

export type KeeperReply = { id: number; holding: boolean } & (
  | { made: MadeList; dropped: { index: number; issues: string }[] }
  /** The upstream failed (the UpstreamError's message: errors do not cross threads with their class), or a copy was invalid. */
  | { failed: string; timedOut: boolean }
  | { answer: unknown }
  /** The list asked about was let go: a newer one replaced it. */
  | { gone: true }
  | { error: string }
);

/**
 * The lists kept: the newest and, while a fill runs, the one it replaces (its answers are still being served). A
 * fill lets go of every older one before it starts, so at most two are held.
 */
const kept = new Map<number, CompactList>();
let nextListId = 1;

/**
 * One client, and so one bounded connection pool, for every fill this thread runs: a client per fill would leave
 * each fill's idle keep-alive socket open until it timed out, and the soak counted them piling up.
 */
let upstream: { timeoutMs: number; client: UpstreamClient } | undefined;
function upstreamClient(timeoutMs: number): UpstreamClient {
  if (upstream?.timeoutMs !== timeoutMs) upstream = { timeoutMs, client: createUpstreamClient(timeoutMs) };
  return upstream.client;
}

function keepOnlyTheNewest(): void {
  const newest = Math.max(0, ...kept.keys());
  for (const listId of kept.keys()) if (listId !== newest) kept.delete(listId);
}

type Outcome = { made: MadeList; dropped: { index: number; issues: string }[] } | { failed: string; timedOut: boolean };

async function fill(url: string, timeoutMs: number, maxBytes: number): Promise<Outcome> {
  let response;
  try {
    response = await upstreamClient(timeoutMs).get(url, 'text', { bytes: maxBytes, setting: 'UPSTREAM_MAX_BYTES' });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return { failed: error.message, timedOut: error.timedOut };
  }
  const failed = (message: string): Outcome => ({ failed: message, timedOut: false });
  if (!isSuccess(response)) return failed(`${url} answered ${response.status}`);
  const text = typeof response.data === 'string' ? response.data.trim() : '';
  let raw: unknown;
  try {
    raw = text === '' ? undefined : JSON.parse(text);
  } catch {
    return failed(`${url} answered ${response.status} with a body that is not JSON`);
  }
  if (!Array.isArray(raw)) return failed(`${url} did not answer a JSON array`);
  const products: Product[] = [];
  const dropped: { index: number; issues: string }[] = [];
  for (const [index, item] of raw.entries()) {
    const parsed = productSchema.safeParse(item);
    if (parsed.success) products.push(parsed.data);
    else dropped.push({ index, issues: describeProductIssues(parsed.error) });
  }
  return { made: await make(products), dropped };
}

/** A copy another replica shared: the list's JSON with the source's image locations; invalid, it is not used. */
async function load(json: Uint8Array): Promise<Outcome> {
  const products = productsOfCopy(json);
  return products === undefined
    ? { failed: 'the shared copy is not a list of valid products', timedOut: false }
    : { made: await make(products), dropped: [] };
}

/**
 * The compact list of these products and its encoded body. A large list's JSON is made in shared memory, so the
 * request thread's identity body and the list kept here are the same bytes, held once.
 */
async function make(products: readonly Product[]): Promise<MadeList> {
  let handedOver = true;
  const compact = buildCompactList(products, (bytes) => {
    handedOver = bytes <= HANDED_OVER_MAX_BYTES;
    return handedOver ? new Uint8Array(bytes) : new Uint8Array(new SharedArrayBuffer(bytes));
  });
  const json = compact.json;
  const body = await encodeBody(Buffer.from(json.buffer, json.byteOffset, json.byteLength));
  if (handedOver) return { body, compact };
  const listId = nextListId++;
  kept.set(listId, compact);
  return { body, listId, ...shapeOf(compact) };
}

/** The buffers an answer can move rather than copy: those that are all of their memory (not Node's shared pool). */
function movable(value: unknown): ArrayBuffer[] {
  const views: Uint8Array[] = [];
  const visit = (item: unknown) => {
    if (item instanceof Uint8Array || item instanceof Uint32Array || item instanceof Uint16Array || item instanceof Float64Array) {
      if (item.buffer instanceof ArrayBuffer && item.byteOffset === 0 && item.byteLength === item.buffer.byteLength) {
        views.push(item as Uint8Array);
      }
    } else if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      for (const child of Object.values(item)) visit(child);
    }
  };
  visit(value);
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))];
}

async function handle(request: KeeperRequest): Promise<Omit<KeeperReply, 'id' | 'holding'>> {
  switch (request.op) {
    case 'fill':
      keepOnlyTheNewest();
      return fill(request.url, request.timeoutMs, request.maxBytes);
    case 'load':
      keepOnlyTheNewest();
      return load(request.json);
    case 'ask': {
      const list = kept.get(request.listId);
      if (list === undefined) return { gone: true };
      return { answer: answerQuestion(list, request.kind, request.ask as never) };
    }
  }
}

parentPort?.on('message', (request: KeeperRequest) => {
  handle(request).then(
    (reply) => {
      const message = { ...reply, id: request.id, holding: kept.size > 0 } as KeeperReply;
      parentPort?.postMessage(message, movable(reply));
    },
    (error: unknown) => {
      parentPort?.postMessage({ id: request.id, holding: kept.size > 0, error: String(error) } satisfies KeeperReply);
    },
  );
});
