import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { seededRandom } from '@catalogue/testing/seeded-random';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import type { Product } from '@catalogue/shared/product';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyFilesOf, listFilesIn } from '../list-files.js';
import { toPublicProduct } from '../public-product.js';
import { runFill } from './list-fill.js';
import type { FillOutcome } from './protocol.js';

/** About 1.4 MB of JSON, so its body comes in many chunks. */
const PRODUCTS = generateCatalogue(3_000);
const MAX_BYTES = 64 * 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'streamed-fill-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let nextList = 1;
/** Where the next fill writes: files that do not exist yet. */
const newFiles = () => listFilesIn(join(folder, `list-${nextList++}`));
/** The whole list's body the fill wrote, as text. */
const listJson = (outcome: FillOutcome) => {
  if (!('made' in outcome)) throw new Error(JSON.stringify(outcome));
  const { json, gzip, br } = bodyFilesOf(outcome.made.files, 'list');
  for (const file of [outcome.made.files.database, json, gzip, br]) expect(existsSync(file)).toBe(true);
  return readFileSync(json, 'utf8');
};
const publicJson = (products: readonly Product[]) => JSON.stringify(products.map(toPublicProduct));

/** A real HTTP upstream that writes `body` in the pieces given, one write each, waiting for each to be flushed. */
async function startChunkedUpstream(pieces: () => Buffer[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    void (async () => {
      for (const piece of pieces()) await new Promise((resolve) => res.write(piece, resolve));
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/products`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a fill reads the upstream body as it streams in', () => {
  let upstream: UpstreamStub;
  beforeAll(async () => {
    upstream = await startUpstreamStub({ products: PRODUCTS });
  });
  afterAll(() => upstream.close());
  const fill = (maxBytes = MAX_BYTES, timeoutMs = 20_000) =>
    runFill({ op: 'fill', url: `${upstream.url}/products`, timeoutMs, maxBytes, traceHeaders: {}, refresh: false, files: newFiles() });

  it('makes the same list from a body written in small pieces, each cut inside strings, escapes and characters', async () => {
    // Hostile titles and descriptions: what a scanner that lost its place at a chunk's edge would cut wrongly.
    const hostile = PRODUCTS.slice(0, 200).map((product, index) => ({
      ...product,
      title: `${product.title} "q\\", ] }, [{ 😀 ${'é'.repeat(index % 7)}`,
      description: `\\${'\\"'.repeat(index % 5)}, ]}${'中'.repeat(index)}`,
    }));
    const body = Buffer.from(`\uFEFF ${JSON.stringify(hostile, null, 1)}\n`, 'utf8');
    const random = seededRandom(33);
    const chunked = await startChunkedUpstream(() => {
      const pieces: Buffer[] = [];
      for (let at = 0; at < body.length;) {
        const size = 1 + Math.floor(random() * 700);
        pieces.push(body.subarray(at, at + size));
        at += size;
      }
      return pieces;
    });
    try {
      const outcome = await runFill({
        op: 'fill',
        url: chunked.url,
        timeoutMs: 20_000,
        maxBytes: MAX_BYTES,
        traceHeaders: {},
        refresh: false,
        files: newFiles(),
      });
      expect(listJson(outcome)).toBe(publicJson(hostile));
    } finally {
      await chunked.close();
    }
  });

  it('stops at UPSTREAM_MAX_BYTES mid-body, naming the setting', async () => {
    expect(await fill(4096)).toEqual({
      failed: `${upstream.url}/products answered more than UPSTREAM_MAX_BYTES (4096 bytes)`,
      timedOut: false,
    });
  });

  it('fails, never half a list, when the upstream cuts or stalls mid-body: no file of it is left', async () => {
    const before = readdirSync(folder).length;
    await upstream.setMode('cutMidBody');
    const cut = await fill();
    expect(cut).toMatchObject({ timedOut: false });
    expect('failed' in cut && cut.failed).toMatch(/^http:.*\/products failed/);
    await upstream.setMode('stallMidBody');
    expect(await fill(MAX_BYTES, 300)).toEqual({ failed: `${upstream.url}/products timed out`, timedOut: true });
    expect(readdirSync(folder)).toHaveLength(before);
    await upstream.setMode('normal');
    expect(listJson(await fill())).toBe(publicJson(PRODUCTS));
  });

  it('says what a body that is not a JSON array is, as it always did', async () => {
    const url = `${upstream.url}/products`;
    for (const [mode, message] of [
      ['html', `${url} answered 200 with a body that is not JSON`],
      ['badJson', `${url} answered 200 with a body that is not JSON`],
      ['null', `${url} did not answer a JSON array`],
      ['empty', `${url} did not answer a JSON array`],
    ] as const) {
      upstream.override('/products', mode, { times: 1 });
      expect(await fill(), mode).toEqual({ failed: message, timedOut: false });
    }
    upstream.override('/products', { status: 200, body: '{"products":[]}' }, { times: 1 });
    expect(await fill()).toEqual({ failed: `${url} did not answer a JSON array`, timedOut: false });
    upstream.override('/products', { status: 200, body: '[{"id":1},' }, { times: 1 });
    expect(await fill()).toEqual({ failed: `${url} answered 200 with a body that is not JSON`, timedOut: false });
  });
});
