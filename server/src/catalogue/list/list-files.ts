import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import type { BodyBytes, EncodedBody } from '../../bodies/encoded-body.js';
import type { CatalogueShape } from './catalogue-database.js';

/**
 * The files of one filled list, all in a folder of its own inside this process's folder (CATALOGUE_DATA_DIR): its
 * SQLite database and the whole public list's JSON, gzip and brotli, in each order a Fake Store client asks for it
 * whole (docs/decisions/catalogue-in-sqlite.md). Whatever else SQLite or a fill writes beside them (a journal) is in
 * the same folder, so removing the folder removes every file of the list, whoever made it.
 */
export interface ListFiles {
  folder: string;
  database: string;
}

/** The whole list in one order: what `GET /api/products`, `?sort=asc` and `?sort=desc` answer. */
export type WholeListOrder = 'list' | 'idAsc' | 'idDesc';

/** A list written: its files, its shape and the whole list's ETag (what a fill's process replies). */
export interface MadeList {
  files: ListFiles;
  shape: CatalogueShape;
  etag: string;
  /** Whether its own order is ascending by id: the whole list by id, ascending, is then its own body. */
  idsAscending: boolean;
}

/** The whole list in id order, written from the list's database when first asked for (list-fill.ts's runOrder). */
export type IdOrder = 'idAsc' | 'idDesc';

/** An id order's body written: its ETag; or why it could not be. */
export type Ordered = { ok: true; etag: string } | { ok: false; message: string };

/** A new list's folder and the database's place in it (the folder made, empty). */
export function listFilesIn(folder: string): ListFiles {
  mkdirSync(folder);
  return { folder, database: join(folder, 'products.sqlite') };
}

/** The three encodings of one whole-list body. */
export const bodyFilesOf = ({ folder }: ListFiles, order: WholeListOrder) => {
  const json = join(folder, `${order}.json`);
  return { json, gzip: `${json}.gz`, br: `${json}.br` };
};

/**
 * Removes a list's folder, every file in it; gone already is fine. Never rejects: what could not be removed is the
 * error it resolves with (the folder is removed with this process's own when it stops, or by the next start on this
 * host: data-folder.ts).
 */
export async function removeListFiles(files: ListFiles): Promise<Error | undefined> {
  try {
    await rm(files.folder, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Removes one whole-list body's files (one that could not be finished); gone already is fine. */
export async function removeBodyFiles(files: ListFiles, order: WholeListOrder): Promise<void> {
  const { json, gzip, br } = bodyFilesOf(files, order);
  await Promise.all([json, gzip, br].map((path) => rm(path, { force: true })));
}

/**
 * A whole list's JSON up to this size is held in memory (some 2,000 products): its answers are then a write of a
 * buffer. A larger one is streamed from its files: at 200,000 products the three encodings are some 140 MB that
 * would otherwise stay resident for the rare client that asks for the whole list.
 */
export const LIST_BODY_IN_MEMORY_MAX_BYTES = 1024 * 1024;

/** One whole-list body from its files, with its validator as the fill made it: in memory, or the files themselves. */
export async function listBody(files: ListFiles, order: WholeListOrder, etag: string): Promise<EncodedBody> {
  const { json, gzip, br } = bodyFilesOf(files, order);
  const inMemory = (await stat(json)).size <= LIST_BODY_IN_MEMORY_MAX_BYTES;
  const bytes = async (path: string): Promise<BodyBytes> => (inMemory ? readFile(path) : { path, length: (await stat(path)).size });
  const [identity, gzipped, brotli] = await Promise.all([json, gzip, br].map(bytes));
  return { identity: identity!, gzip: gzipped!, br: brotli!, etag };
}

/** Flushed to the file at this size: a few writes a megabyte, not one a product. */
const CHUNK_CHARS = 256 * 1024;

/** Brotli as encoded-body.ts sets it for every other body (its comment says why quality 5). */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

/**
 * A whole list's JSON written product by product (never held whole), hashed as it goes for its ETag, and compressed
 * both ways as it goes, gzip level 6 and brotli quality 5 as encoded-body.ts does for every other body, on libuv's
 * pool: the compression runs while the products are still coming, so little of it is left when the last one is in.
 */
export function listBodyWriter(files: ListFiles, order: WholeListOrder) {
  const paths = bodyFilesOf(files, order);
  const fd = openSync(paths.json, 'wx');
  const hash = createHash('sha1');
  const compressors = [createGzip({ level: 6 }), createBrotliCompress(BROTLI)];
  const compressed = Promise.all([
    pipeline(compressors[0]!, createWriteStream(paths.gzip, { flags: 'wx' })),
    pipeline(compressors[1]!, createWriteStream(paths.br, { flags: 'wx' })),
  ]);
  // Awaited by `finish`; abandoned, its failure is the abandoning's and nobody's to hear.
  compressed.catch(() => undefined);
  let pending = '[';
  let count = 0;
  let open = true;
  const flush = () => {
    const bytes = Buffer.from(pending, 'utf8');
    hash.update(bytes);
    writeSync(fd, bytes);
    for (const compressor of compressors) compressor.write(bytes);
    pending = '';
  };
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    add(json: string): void {
      pending += count++ === 0 ? json : `,${json}`;
      if (pending.length >= CHUNK_CHARS) flush();
    },
    /** Resolves once the compressors have room again: a writer that can wait calls it, so they never hold much. */
    async drained(): Promise<void> {
      for (const compressor of compressors) if (compressor.writableNeedDrain) await once(compressor, 'drain');
    },
    /** Closes the JSON; its ETag, the hash of its bytes, once both compressions are written too. */
    async finish(): Promise<string> {
      pending += ']';
      flush();
      close();
      for (const compressor of compressors) compressor.end();
      await compressed;
      return `"${hash.digest('base64url')}"`;
    },
    abandon(): void {
      close();
      for (const compressor of compressors) compressor.destroy();
    },
  };
}
