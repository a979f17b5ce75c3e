/**
 * Filling the product list, run on a worker thread (list-fill-pool.ts) so the event loop keeps answering what is
 * cached meanwhile: download the upstream's body (tens of megabytes for a large catalogue), parse it, validate
 * every product, build the search index (list-index.ts), serialise and compress the public list. What it hands
 * back travels through a MessagePort in chunks, each its own message, so the main thread never spends more than a
 * chunk's worth of time copying it in.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import type { Product } from '@catalogue/shared/product';
import type { EncodedBody } from '../http/encoded-body.js';
import { encodeJsonBody } from '../http/encoded-body.js';
import { buildListIndex, type ListIndex } from './list-index.js';
import { describeProductIssues, productSchema } from './product-schema.js';
import { UpstreamError } from './product-source.js';
import { toPublicProduct } from './public-product.js';
import { createUpstreamClient, isSuccess, type UpstreamClient } from './upstream-request.js';

/**
 * This thread yields the processor to the event loop: on Linux a thread's nice value is its own, so the lowest
 * priority here leaves the main thread's (answers, probes) as it is when both want the same core. Elsewhere, or
 * where /proc is not mounted, the thread runs at the process's priority.
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

export interface ListFillTask {
  /** `{PRODUCTS_API_URL}/products`. */
  url: string;
  /** UPSTREAM_TIMEOUT_MS: the whole exchange, download included. */
  timeoutMs: number;
  /** UPSTREAM_MAX_BYTES. */
  maxBytes: number;
  /** Where the products, then the end message, are posted. */
  port: MessagePort;
  /** Products per message. */
  chunkSize: number;
}

/** A chunk of the validated products, in the upstream's order, with their lower-cased titles. */
export interface ListChunkMessage {
  kind: 'chunk';
  products: Product[];
  lowerTitles: string[];
}

/** The last message: the public list's body and the sort orders (their buffers transferred). */
export interface ListEndMessage {
  kind: 'end';
  body: EncodedBody;
  orders: ListIndex['orders'];
  /** The upstream's products that failed the schema: their position and why, for the log. */
  dropped: { index: number; issues: string }[];
}

/**
 * Why there is no list: the UpstreamError's message (the URL, and what went wrong) and whether it was a timeout;
 * errors do not cross threads with their class, so the main thread makes the UpstreamError again.
 */
export type ListFillResult = { ok: true } | { ok: false; message: string; timedOut: boolean };

/**
 * One client, and so one bounded connection pool, for every fill this thread runs: a client per fill would leave
 * each fill's idle keep-alive socket open until it timed out, and the soak counted them piling up.
 */
let upstream: { timeoutMs: number; client: UpstreamClient } | undefined;
function upstreamClient(timeoutMs: number): UpstreamClient {
  if (upstream?.timeoutMs !== timeoutMs) upstream = { timeoutMs, client: createUpstreamClient(timeoutMs) };
  return upstream.client;
}

export default async function fillList({ url, timeoutMs, maxBytes, port, chunkSize }: ListFillTask): Promise<ListFillResult> {
  try {
    let response;
    try {
      response = await upstreamClient(timeoutMs).get(url, 'text', { bytes: maxBytes, setting: 'UPSTREAM_MAX_BYTES' });
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      return { ok: false, message: error.message, timedOut: error.timedOut };
    }
    const failed = (message: string): ListFillResult => ({ ok: false, message, timedOut: false });
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
    const dropped: ListEndMessage['dropped'] = [];
    for (const [index, item] of raw.entries()) {
      const parsed = productSchema.safeParse(item);
      if (parsed.success) products.push(parsed.data);
      else dropped.push({ index, issues: describeProductIssues(parsed.error) });
    }
    const { lowerTitles, orders } = buildListIndex(products);
    const encoded = await encodeJsonBody(products.map(toPublicProduct));
    for (let start = 0; start < products.length; start += chunkSize) {
      const chunk: ListChunkMessage = {
        kind: 'chunk',
        products: products.slice(start, start + chunkSize),
        lowerTitles: lowerTitles.slice(start, start + chunkSize),
      };
      port.postMessage(chunk);
    }
    const end: ListEndMessage = { kind: 'end', body: encoded, orders, dropped };
    const buffers = [encoded.identity, encoded.gzip, encoded.br, ...Object.values(orders)];
    port.postMessage(
      end,
      buffers.filter(ownsItsMemory).map((buffer) => buffer.buffer as ArrayBuffer),
    );
    return { ok: true };
  } finally {
    port.close();
  }
}

/**
 * Whether a view is all of its memory, which can then be moved rather than copied: large Buffers are; small ones
 * share Node's pool (moving it would take the other Buffers' bytes along), so they are copied.
 */
function ownsItsMemory(view: Uint8Array | Uint32Array): boolean {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}
