import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** One JSON answer, serialised and compressed once per cache fill so that a cache hit only copies bytes. */
export interface PreparedBody {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** Strong validator of the identity bytes, quoted (`"…"`); the HTTP layer derives one per encoding. */
  etag: string;
}

export function prepareBody(value: unknown): PreparedBody {
  const identity = Buffer.from(JSON.stringify(value), 'utf8');
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    // Quality 11 is slow, but this runs once per fill, not once per request.
    br: brotliCompressSync(identity, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 11,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    etag: `"${createHash('sha1').update(identity).digest('base64url')}"`,
  };
}
