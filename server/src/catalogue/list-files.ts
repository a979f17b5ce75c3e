import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { BodyBytes, EncodedBody } from '../bodies/encoded-body.js';
import type { CatalogueShape } from './catalogue-database.js';

/**
 * The files of one filled list, side by side in the catalogue's folder (CATALOGUE_DATA_DIR): its SQLite database and
 * the whole public list's JSON, gzip and brotli (what `GET /api/products` answers), all named from one base.
 */
export interface ListFiles {
  database: string;
  json: string;
  gzip: string;
  br: string;
}

/** A list written: its files, its shape and the whole list's ETag (what a fill's process replies). */
export interface MadeList {
  files: ListFiles;
  shape: CatalogueShape;
  etag: string;
}

export const listFilesAt = (base: string): ListFiles => ({
  database: `${base}.sqlite`,
  json: `${base}.json`,
  gzip: `${base}.json.gz`,
  br: `${base}.json.br`,
});

/** Removes a list's files; gone already is fine. */
export async function removeListFiles(files: ListFiles): Promise<void> {
  await Promise.all([files.database, files.json, files.gzip, files.br].map((file) => rm(file, { force: true })));
}

/**
 * A whole list's JSON up to this size is held in memory (some 2,000 products): its answers are then a write of a
 * buffer. A larger one is streamed from its files: at 200,000 products the three encodings are some 140 MB that
 * would otherwise stay resident for the rare client that asks for the whole list.
 */
export const LIST_BODY_IN_MEMORY_MAX_BYTES = 1024 * 1024;

/** The whole list's body from its files, with its validator as the fill made it: in memory, or the files themselves. */
export async function listBody(files: ListFiles, etag: string): Promise<EncodedBody> {
  const paths = [files.json, files.gzip, files.br] as const;
  const inMemory = (await stat(files.json)).size <= LIST_BODY_IN_MEMORY_MAX_BYTES;
  const bytes = async (path: string): Promise<BodyBytes> => (inMemory ? readFile(path) : { path, length: (await stat(path)).size });
  const [identity, gzip, br] = await Promise.all(paths.map(bytes));
  return { identity: identity!, gzip: gzip!, br: br!, etag };
}

/** Flushed to the file at this size: a few writes a megabyte, not one a product. */
const CHUNK_CHARS = 256 * 1024;

/**
 * The whole list's JSON written product by product as the fill adds them (never held whole), hashed as it goes for
 * its ETag, then compressed both ways from the file: gzip level 6 and brotli quality 5, as encoded-body.ts does for
 * every other body (its comment says why those levels).
 */
export function listBodyWriter(files: ListFiles) {
  const fd = openSync(files.json, 'wx');
  const hash = createHash('sha1');
  let pending = '[';
  let count = 0;
  const flush = () => {
    const bytes = Buffer.from(pending, 'utf8');
    hash.update(bytes);
    writeSync(fd, bytes);
    pending = '';
  };
  return {
    add(json: string): void {
      pending += count++ === 0 ? json : `,${json}`;
      if (pending.length >= CHUNK_CHARS) flush();
    },
    /**
     * Closes the JSON and starts compressing it on a thread of its own, so the fill's own thread may go on (it
     * indexes the database meanwhile); resolves with the ETag of the identity bytes once both files are written.
     */
    finish(): Promise<string> {
      pending += ']';
      flush();
      closeSync(fd);
      const etag = `"${hash.digest('base64url')}"`;
      return new Promise((resolve, reject) => {
        const compressing = new Worker(COMPRESS_BOTH_WAYS, { eval: true, execArgv: [], workerData: files });
        compressing.once('message', () => resolve(etag));
        compressing.once('error', reject);
        compressing.once('exit', (code) => reject(new Error(`the list's compression stopped (code ${code})`)));
      });
    },
    abandon(): void {
      try {
        closeSync(fd);
      } catch {
        // Closed already.
      }
    },
  };
}

/** The compressing thread's program: the two pipelines from the JSON file, on libuv's pool, with nothing held whole. */
const COMPRESS_BOTH_WAYS = `
  const { workerData: files, parentPort } = require('node:worker_threads');
  const { createReadStream, createWriteStream } = require('node:fs');
  const { pipeline } = require('node:stream/promises');
  const zlib = require('node:zlib');
  const brotli = { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT };
  Promise.all([
    pipeline(createReadStream(files.json), zlib.createGzip({ level: 6 }), createWriteStream(files.gzip)),
    pipeline(createReadStream(files.json), zlib.createBrotliCompress({ params: brotli }), createWriteStream(files.br)),
  ]).then(() => parentPort.postMessage('written'), (error) => { throw error; });
`;
