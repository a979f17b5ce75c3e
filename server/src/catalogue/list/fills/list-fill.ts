/**
 * One fill of the product list (docs/decisions/catalogue-in-sqlite.md): read the upstream's body as it streams in
 * (tens of megabytes for a large catalogue, never held whole), parse and validate each product as it completes and
 * write it into a new SQLite file and the whole list's body files; or the same from a copy another replica shared,
 * or from the embedded catalogue's products. It runs in a process of its own that exits when the fill is done
 * (fill-process.ts): the request thread never waits on the writing, and what comes back is the files' names and the
 * list's shape.
 */
import { type CatalogueWriter, catalogueWriter } from '../catalogue-database.js';
import { listBodyWriter, type ListFiles, type MadeList, removeBodyFiles, removeListFiles } from '../list-files.js';
import { wholeListInIdOrder } from '../catalogue-queries.js';
import { eachJsonArrayItem, jsonArrayReader } from '../../upstream/json-array-items.js';
import { describeProductIssues, productSchema } from '../../upstream/product-schema.js';
import { UpstreamError } from '../../upstream/upstream-error.js';
import type { UpstreamValidators } from '../../upstream/upstream-validators.js';
import {
  conditionalHeaders,
  createUpstreamClient,
  isSuccess,
  type StreamedResponse,
  validatorsOf,
} from '../../upstream/upstream-request.js';
import type { Dropped, FillFailed, FillJob, FillOutcome, NotModified } from './protocol.js';

/** The list being written of the valid products, and those dropped; or the list held, unchanged (a 304). */
type Validated = { dropped: Dropped; validators?: UpstreamValidators } | NotModified | FillFailed;

/** Both of a fill's writers: the database and the whole list's body in its own order. */
function listWriter(files: ListFiles) {
  const database: CatalogueWriter = catalogueWriter(files.database);
  const body = listBodyWriter(files, 'list');
  let lastId = -Infinity;
  let idsAscending = true;
  return {
    add(product: Parameters<CatalogueWriter['add']>[0]) {
      if (product.id < lastId) idsAscending = false;
      lastId = product.id;
      body.add(database.add(product));
    },
    drained: () => body.drained(),
    /** Indexes the database while the body's compression finishes; `alive` is called after the long step. */
    async finish(alive: () => void): Promise<Omit<MadeList, 'files'>> {
      const compressed = body.finish();
      const shape = database.finish();
      alive();
      return { shape, etag: await compressed, idsAscending };
    },
    abandon() {
      database.abandon();
      body.abandon();
    },
  };
}

/** Rows written between two looks at the compressors' room (and two words to the parent). */
const ROWS_BETWEEN_WAITS = 2_000;

/**
 * The whole list in id order, read from the finished database with one query, row after row into its files (an
 * `order` job: made once a list, when first asked for, never on each request); its ETag.
 */
export async function runOrder({ files, order }: Extract<FillJob, { op: 'order' }>, alive: () => void = () => {}): Promise<FillOutcome> {
  const body = listBodyWriter(files, order);
  try {
    let rows = 0;
    for (const json of wholeListInIdOrder(files.database, order === 'idAsc' ? 'asc' : 'desc')) {
      body.add(json);
      if (++rows % ROWS_BETWEEN_WAITS === 0) {
        await body.drained();
        alive();
      }
    }
    return { ordered: await body.finish() };
  } catch (error) {
    body.abandon();
    await removeBodyFiles(files, order);
    return { failed: `the list in id order could not be written: ${String(error)}`, timedOut: false };
  }
}

type ListWriter = ReturnType<typeof listWriter>;

export async function runFill(job: Exclude<FillJob, { op: 'order' }>, alive: () => void = () => {}): Promise<FillOutcome> {
  const list = listWriter(job.files);
  let made: FillOutcome | undefined;
  try {
    const had = job.op === 'load' ? validatedCopy(job.json, list) : await download(job, list);
    if ('failed' in had || 'notModified' in had) return had;
    const written = await list.finish(alive);
    made = { made: { files: job.files, ...written }, dropped: had.dropped, ...(had.validators && { validators: had.validators }) };
    return made;
  } finally {
    // A list that failed half-way (the upstream, the disk) is never left behind: nobody opens a file of it.
    if (made === undefined) {
      list.abandon();
      await removeListFiles(job.files);
    }
  }
}

/**
 * A whole list's JSON (a copy another replica shared, the embedded catalogue's) read as a fill reads the upstream's
 * body, item by item, but all or nothing: its products were validated already, so one invalid product means it is
 * not a list.
 */
function validatedCopy(json: Uint8Array, list: ListWriter): Validated {
  let valid = true;
  const read = eachJsonArrayItem(Buffer.from(json.buffer, json.byteOffset, json.byteLength), (item) => {
    const parsed = valid ? productSchema.safeParse(item) : undefined;
    if (parsed?.success) list.add(parsed.data);
    else valid = false;
  });
  return read && valid ? { dropped: [] } : failed('the shared copy is not a list of valid products');
}

async function download(
  { url, timeoutMs, maxBytes, traceHeaders, validators }: Extract<FillJob, { op: 'fill' }>,
  list: ListWriter,
): Promise<Validated> {
  let streamed: StreamedResponse;
  try {
    // The fill's process has no tracing of its own: the trace context of the fill's span is sent as it was handed over.
    streamed = await createUpstreamClient(timeoutMs).stream(
      url,
      { bytes: maxBytes, setting: 'UPSTREAM_MAX_BYTES' },
      // Asked whether the list held changed: a 304 ends the fill with nothing written, a 200 is read once, here.
      { headers: { ...traceHeaders, ...conditionalHeaders(validators) } },
    );
  } catch (error) {
    return upstreamFailed(error);
  }
  const { response, chunks, discard } = streamed;
  if (response.status === 304 && validators !== undefined) {
    discard();
    return { notModified: true };
  }
  if (!isSuccess(response)) {
    discard();
    return failed(`${url} answered ${response.status}`);
  }
  // Item by item as the body arrives: neither the body nor the whole array parsed is ever held, only the item
  // being read, so the fill's heap stays small. Each item's parse, and the schema's
  // object, are garbage once the list has its JSON.
  const { visit, dropped } = validating(list);
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
      // The body's compression keeps pace with the download, or the download waits for it.
      await list.drained();
    }
  } catch (error) {
    return upstreamFailed(error);
  }
  const verdict = reader.end();
  if (verdict === 'broken') return failed(`${url} answered ${response.status} with a body that is not JSON`);
  if (verdict === 'not-an-array') return whyNotAnArray(url, response.status, Buffer.concat(whole ?? []));
  const sent = validatorsOf(response);
  return sent === undefined ? { dropped } : { dropped, validators: sent };
}

/** An UpstreamError (the limit named, timed out, failed) as the fill's failure: errors do not cross processes. */
function upstreamFailed(error: unknown): FillFailed {
  if (!(error instanceof UpstreamError)) throw error;
  return { failed: error.message, timedOut: error.timedOut };
}

/** Checks each item as it comes: a product goes into the list, anything else is reported with its index in the upstream's array. */
function validating(list: ListWriter): { visit: (item: unknown, index: number) => void; dropped: Dropped } {
  const dropped: Dropped = [];
  const visit = (item: unknown, index: number): void => {
    const parsed = productSchema.safeParse(item);
    if (parsed.success) list.add(parsed.data);
    else dropped.push({ index, issues: describeProductIssues(parsed.error) });
  };
  return { visit, dropped };
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
