import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, writeSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import type { EncodedBody } from '../http/encoded-body.js';

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

/** The whole list's body from its files, with its validator as the fill made it. */
export async function readListBody(files: ListFiles, etag: string): Promise<EncodedBody> {
  const [identity, gzip, br] = await Promise.all([readFile(files.json), readFile(files.gzip), readFile(files.br)]);
  return { identity, gzip, br, etag };
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
    /** Closes the JSON, writes its compressed forms; the ETag of the identity bytes. */
    async finish(): Promise<string> {
      pending += ']';
      flush();
      closeSync(fd);
      await Promise.all([
        pipeline(createReadStream(files.json), createGzip({ level: 6 }), createWriteStream(files.gzip)),
        pipeline(
          createReadStream(files.json),
          createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }),
          createWriteStream(files.br),
        ),
      ]);
      return `"${hash.digest('base64url')}"`;
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
