/**
 * The heavy half of filling the product list, run on a worker thread (list-fill-pool.ts) so the event loop keeps
 * answering what is cached meanwhile: decode and parse the upstream's body, validate every product, build the
 * search index (list-index.ts), serialise and compress the public list. What it hands back travels through a
 * MessagePort in chunks, each its own message, so the main thread never spends more than a chunk's worth of
 * time copying it in.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Product } from '@catalogue/shared/product';
import type { EncodedBody } from '../http/encoded-body.js';
import { encodeJsonBody } from '../http/encoded-body.js';
import { buildListIndex, type ListIndex } from './list-index.js';
import { describeProductIssues, productSchema } from './product-schema.js';
import { toPublicProduct } from './public-product.js';

export interface ListFillTask {
  /** The upstream's body as it arrived (transferred, not copied). */
  body: Uint8Array;
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

/** Why a body is not a list; the main thread names the URL in the error. */
export type ListFillResult = { ok: true } | { ok: false; reason: 'not-json' | 'not-array' };

export default async function fillList({ body, port, chunkSize }: ListFillTask): Promise<ListFillResult> {
  try {
    const text = new TextDecoder().decode(body).trim();
    let raw: unknown;
    try {
      raw = text === '' ? undefined : JSON.parse(text);
    } catch {
      return { ok: false, reason: 'not-json' };
    }
    if (!Array.isArray(raw)) return { ok: false, reason: 'not-array' };
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
