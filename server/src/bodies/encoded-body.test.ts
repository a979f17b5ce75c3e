import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeJsonBody } from './encoded-body.js';

const catalogue = Array.from({ length: 1000 }, (_, index) => ({
  id: index + 1,
  title: `Product number ${index + 1} with a reasonably long title`,
  description: 'A description long enough to make the body a few hundred kilobytes, as real catalogues are. '.repeat(3),
}));

describe('encodeJsonBody', () => {
  it('serialises once and keeps gzip and brotli variants of the same bytes', async () => {
    const body = await encodeJsonBody(catalogue);
    expect(JSON.parse(body.identity.toString('utf8'))).toEqual(catalogue);
    expect(gunzipSync(body.gzip).equals(body.identity)).toBe(true);
    expect(brotliDecompressSync(body.br).equals(body.identity)).toBe(true);
    expect(body.gzip.length).toBeLessThan(body.identity.length / 4);
    expect(body.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('gives equal bodies equal ETags and different bodies different ones', async () => {
    const [a, b, c] = await Promise.all([encodeJsonBody(catalogue), encodeJsonBody(catalogue), encodeJsonBody(catalogue.slice(1))]);
    expect(a.etag).toBe(b.etag);
    expect(a.etag).not.toBe(c.etag);
  });

  it('compresses off the event loop, so requests are served while a large fill is prepared', async () => {
    // A callback queued with setImmediate runs on the next turn of the event loop. Compression done on the
    // thread pool can only report back after that turn; compression done synchronously would settle first.
    const order: string[] = [];
    const prepared = encodeJsonBody(catalogue).then(() => order.push('prepared'));
    setImmediate(() => order.push('event loop turned'));
    await prepared;
    expect(order).toEqual(['event loop turned', 'prepared']);
  });
});
