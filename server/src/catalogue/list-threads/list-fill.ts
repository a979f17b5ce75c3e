/**
 * One fill of the product list (docs/decisions/catalogue-off-the-request-thread.md): read the upstream's body as it
 * streams in (tens of megabytes for a large catalogue, never held whole), parse and validate each product as it
 * completes, build the compact list and encode its public body; or the same from a copy another replica shared. It
 * runs on a thread of its own that exits when the fill is done (fill-thread.ts), so the heap that parsing grew goes
 * back to the system with it: what comes out is typed arrays and bytes only, moved to the thread that keeps the list.
 */
import { type EncodedBody, encodeBody } from '../../http/encoded-body.js';
import { type CompactList, type CompactListBuilder, compactListBuilder } from '../compact-list.js';
import { eachJsonArrayItem, jsonArrayReader } from '../json-array-items.js';
import { describeProductIssues, productSchema } from '../product-schema.js';
import { UpstreamError, type UpstreamValidators } from '../product-source.js';
import { createUpstreamClient, isSuccess, type StreamedAnswer, validatorsOf } from '../upstream-request.js';
import { collectGarbage } from './full-collection.js';
import type { Dropped, FillFailed, FillJob, FillOutcome } from './protocol.js';

/**
 * A list whose JSON is at most this big is handed to the request thread whole (some 2,000 products): holding it
 * there costs a few megabytes and spares every question a trip between threads. A bigger one is kept by the list
 * keeper's thread, its JSON in shared memory, so the request thread's identity body and the list kept are the same
 * bytes, held once.
 */
export const HANDED_OVER_MAX_BYTES = 1024 * 1024;

/**
 * Whether a list whose JSON is `jsonBytes` long is small: the one rule for where its columns are allocated (plain
 * memory, or shared with the keeper's thread), which thread holds it (list-keeper.ts) and where its refills run.
 */
export const isSmallList = (jsonBytes: number): boolean => jsonBytes <= HANDED_OVER_MAX_BYTES;

/** The list being built of the valid products, and those dropped. */
type Validated = { list: CompactListBuilder; dropped: Dropped; validators?: UpstreamValidators } | FillFailed;

export async function runFill(job: FillJob): Promise<FillOutcome> {
  const had = job.op === 'load' ? validatedCopy(job.json) : await download(job);
  if ('failed' in had) return had;
  return { made: await make(had.list), dropped: had.dropped, ...(had.validators && { validators: had.validators }) };
}

/**
 * A shared copy read as a fill reads the upstream's body, item by item (it is a whole list's JSON too), but all or
 * nothing: the source's answer it was made from was validated already, so one invalid product means it is not a copy.
 */
function validatedCopy(json: Uint8Array): Validated {
  const list = compactListBuilder();
  let valid = true;
  const read = eachJsonArrayItem(Buffer.from(json.buffer, json.byteOffset, json.byteLength), (item) => {
    const parsed = valid ? productSchema.safeParse(item) : undefined;
    if (parsed?.success) list.add(parsed.data);
    else valid = false;
  });
  return read && valid ? { list, dropped: [] } : failed('the shared copy is not a list of valid products');
}

async function download({ url, timeoutMs, maxBytes, traceHeaders }: Extract<FillJob, { op: 'fill' }>): Promise<Validated> {
  let answer: StreamedAnswer;
  try {
    // The fill's thread has no tracing of its own: the trace context of the fill's span is sent as it was handed over.
    answer = await createUpstreamClient(timeoutMs).stream(
      url,
      { bytes: maxBytes, setting: 'UPSTREAM_MAX_BYTES' },
      { headers: traceHeaders },
    );
  } catch (error) {
    return upstreamFailed(error);
  }
  const { response, chunks, discard } = answer;
  if (!isSuccess(response)) {
    discard();
    return failed(`${url} answered ${response.status}`);
  }
  // Item by item as the body arrives: neither the body nor the whole array parsed is ever held, only the item
  // being read, so the fill's heap stays small and its thread's exit cheap. Each item's parse, and the schema's
  // object, are garbage once the list has its JSON.
  const { visit, list, dropped } = validating();
  const reader = jsonArrayReader(visit);
  // The bytes before the array's first token, kept only until the reader finds it: a body that is no array at all
  // is read whole (within UPSTREAM_MAX_BYTES) to say whether it is JSON, as before; it is no list, so nothing else
  // is held meanwhile. A broken array is not JSON, said at once.
  let whole: Buffer[] | undefined = [];
  try {
    for await (const chunk of chunks) {
      whole?.push(chunk);
      const reading = reader.push(chunk);
      if (reader.opened()) whole = undefined;
      if (!reading && whole === undefined) break;
    }
  } catch (error) {
    return upstreamFailed(error);
  }
  const verdict = reader.end();
  if (verdict === 'broken') return failed(`${url} answered ${response.status} with a body that is not JSON`);
  if (verdict === 'not-an-array') return whyNotAnArray(url, response.status, Buffer.concat(whole ?? []));
  const validators = validatorsOf(response);
  return validators === undefined ? { list, dropped } : { list, dropped, validators };
}

/** An UpstreamError (the limit named, timed out, failed) as the fill's failure: errors do not cross threads. */
function upstreamFailed(error: unknown): FillFailed {
  if (!(error instanceof UpstreamError)) throw error;
  return { failed: error.message, timedOut: error.timedOut };
}

/** Checks each item as it comes: a product goes into the list, anything else is reported with its index in the upstream's array. */
function validating(): { visit: (item: unknown, index: number) => void; list: CompactListBuilder; dropped: Dropped } {
  const list = compactListBuilder();
  const dropped: Dropped = [];
  const visit = (item: unknown, index: number): void => {
    const parsed = productSchema.safeParse(item);
    if (parsed.success) list.add(parsed.data);
    else dropped.push({ index, issues: describeProductIssues(parsed.error) });
  };
  return { visit, list, dropped };
}

/**
 * What a body whose first token is not `[` is, judged as the whole text always was (without a byte-order mark,
 * trimmed, JSON.parse): not JSON, or not an array.
 */
function whyNotAnArray(url: string, status: number, bytes: Buffer): FillFailed {
  const text = bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim();
  try {
    if (text !== '') JSON.parse(text);
  } catch {
    return failed(`${url} answered ${status} with a body that is not JSON`);
  }
  return failed(`${url} did not answer a JSON array`);
}

const failed = (message: string): FillFailed => ({ failed: message, timedOut: false });

async function make(list: CompactListBuilder): Promise<{ compact: CompactList; body: EncodedBody }> {
  const compact = list.build((jsonBytes) => (isSmallList(jsonBytes) ? 'plain' : 'shared'));
  const { json } = compact;
  // What the parse and the builder held is garbage now (some 50 MB of heap at 200,000 products): collected before
  // the gzip and brotli bodies (74 MB there) are made, rather than both held at the fill's peak.
  if (!isSmallList(json.byteLength)) collectGarbage();
  return { compact, body: await encodeBody(Buffer.from(json.buffer, json.byteOffset, json.byteLength)) };
}
