/**
 * One fill of the product list (docs/decisions/catalogue-off-the-request-thread.md): download the upstream's body
 * (tens of megabytes for a large catalogue), parse it, validate every product, build the compact list and encode its
 * public body; or the same from a copy another replica shared. It runs on a thread of its own that exits when the
 * fill is done (list-fill-worker.ts), so the heap that parsing grew goes back to the system with it: what comes out
 * is typed arrays and bytes only, moved to the thread that keeps the list.
 */
import type { Product } from '@catalogue/shared/product';
import { type EncodedBody, encodeBody } from '../http/encoded-body.js';
import { buildCompactList, type CompactList } from './compact-list.js';
import { describeProductIssues, productSchema, productsOfCopy } from './product-schema.js';
import { UpstreamError } from './product-source.js';
import { createUpstreamClient, isSuccess } from './upstream-request.js';

/**
 * A list whose JSON is at most this big is handed to the request thread whole (some 2,000 products): holding it
 * there costs a few megabytes and spares every question a trip between threads. A bigger one is kept by the list
 * keeper's thread, its JSON in shared memory, so the request thread's identity body and the list kept are the same
 * bytes, held once.
 */
export const HANDED_OVER_MAX_BYTES = 1024 * 1024;

export type FillJob = { op: 'fill'; url: string; timeoutMs: number; maxBytes: number } | { op: 'load'; json: Uint8Array };

export type Dropped = { index: number; issues: string }[];

export type FillOutcome =
  | { made: { compact: CompactList; body: EncodedBody }; dropped: Dropped }
  /** The upstream failed (the UpstreamError's message: errors do not cross threads with their class), or a copy was invalid. */
  | Failed;

type Failed = { failed: string; timedOut: boolean };
type Products = { products: readonly Product[]; dropped: Dropped } | Failed;

export async function runFill(job: FillJob): Promise<FillOutcome> {
  // The body's text and its parse are out of scope once the products are had, so the heap can take them back
  // while the compact list is built: the fill's thread peaks lower.
  const had = job.op === 'load' ? productsOfTheCopy(job.json) : await download(job);
  return 'failed' in had ? had : { made: await make(had.products), dropped: had.dropped };
}

function productsOfTheCopy(json: Uint8Array): Products {
  const products = productsOfCopy(json);
  return products === undefined
    ? { failed: 'the shared copy is not a list of valid products', timedOut: false }
    : { products, dropped: [] };
}

async function download(job: Extract<FillJob, { op: 'fill' }>): Promise<Products> {
  const fetched = await fetchJson(job);
  if ('failed' in fetched) return fetched;
  const { items } = fetched;
  const products: Product[] = [];
  const dropped: Dropped = [];
  for (const [index, item] of items.entries()) {
    const parsed = productSchema.safeParse(item);
    if (parsed.success) products.push(parsed.data);
    else dropped.push({ index, issues: describeProductIssues(parsed.error) });
    // The schema made its own object: the parse's can go now rather than after the whole list.
    items[index] = undefined;
  }
  return { products, dropped };
}

/** The upstream's list parsed; the body's text is out of scope once this returns. */
async function fetchJson({ url, timeoutMs, maxBytes }: Extract<FillJob, { op: 'fill' }>): Promise<{ items: unknown[] } | Failed> {
  let response;
  try {
    response = await createUpstreamClient(timeoutMs).get(url, 'text', { bytes: maxBytes, setting: 'UPSTREAM_MAX_BYTES' });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return { failed: error.message, timedOut: error.timedOut };
  }
  const failed = (message: string): Failed => ({ failed: message, timedOut: false });
  if (!isSuccess(response)) return failed(`${url} answered ${response.status}`);
  const text = typeof response.data === 'string' ? response.data.trim() : '';
  let raw: unknown;
  try {
    raw = text === '' ? undefined : JSON.parse(text);
  } catch {
    return failed(`${url} answered ${response.status} with a body that is not JSON`);
  }
  return Array.isArray(raw) ? { items: raw } : failed(`${url} did not answer a JSON array`);
}

async function make(products: readonly Product[]): Promise<{ compact: CompactList; body: EncodedBody }> {
  const compact = buildCompactList(products, (bytes) =>
    bytes <= HANDED_OVER_MAX_BYTES ? new Uint8Array(bytes) : new Uint8Array(new SharedArrayBuffer(bytes)),
  );
  const { json } = compact;
  return { compact, body: await encodeBody(Buffer.from(json.buffer, json.byteOffset, json.byteLength)) };
}
