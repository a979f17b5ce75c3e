import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The catalogue's files (docs/operations.md, "The catalogue's files") on a disk that runs out, seen from outside
// on the built server: a process whose files may not grow past 1 MiB (bash's `ulimit -f`, with SIGXFSZ ignored so a
// write past it fails with EFBIG as a full disk's fails with ENOSPC, instead of killing the process).
const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const FILE_LIMIT_KIB = 1024;

let child: ChildProcess | undefined;
let upstream: UpstreamStub | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-files-'));
afterEach(async () => {
  child?.kill('SIGKILL');
  await upstream?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The next log record `matches` takes, read from the process's lines as they come (none is read twice). */
async function nextRecord(lines: AsyncIterator<string>, matches: (record: Record<string, unknown>) => boolean) {
  for (let line = await lines.next(); line.done !== true; line = await lines.next()) {
    const record = JSON.parse(line.value) as Record<string, unknown>;
    if (matches(record)) return record;
  }
  throw new Error('the process ended first');
}

describe("the catalogue's files", { timeout: 60_000 }, () => {
  it('on a disk that runs out mid-refill: one line, the list held served on, nothing of the failed fill left', async () => {
    upstream = await startUpstreamStub({ products: FIXTURE_PRODUCTS });
    child = spawn('bash', ['-c', `trap '' XFSZ; ulimit -f ${FILE_LIMIT_KIB}; exec "$0" "$1"`, process.execPath, ENTRY], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        PRODUCTS_API_URL: upstream.url,
        CATALOGUE_DATA_DIR: dataDir,
        CACHE_TTL_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const log = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const started = await nextRecord(log, (record) => String(record.msg).startsWith('Serving the product catalogue'));
    const site = String(started.url);
    const list = async () => {
      const response = await fetch(`${site}/api/products`);
      return { status: response.status, size: ((await response.json()) as unknown[]).length, cache: response.headers.get('x-cache') };
    };
    expect(await list()).toMatchObject({ status: 200, size: FIXTURE_PRODUCTS.length });
    const [folder] = readdirSync(dataDir);
    const held = readdirSync(join(dataDir, folder!)).sort();

    // About 2.5 MB of JSON: the refill's files outgrow the limit.
    upstream.setProducts(generateCatalogue(5_000));
    expect(await list()).toMatchObject({ status: 200, size: FIXTURE_PRODUCTS.length, cache: 'STALE' });
    const failure = await nextRecord(log, (record) => record.level === 40 && String(record.msg).startsWith('Background refresh failed'));
    expect(JSON.stringify(failure)).toMatch(/the list could not be written: .*(EFBIG|file too large|disk is full|disk I\/O error)/i);
    // Read before the next request, which (with no freshness at all) starts the next refill.
    expect(readdirSync(join(dataDir, folder!)).sort()).toEqual(held);
    expect(await list()).toMatchObject({ status: 200, size: FIXTURE_PRODUCTS.length });
    expect((await fetch(`${site}/readyz`)).status).toBe(200);
  });
});
