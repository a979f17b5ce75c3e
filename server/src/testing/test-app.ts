import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildServer } from '../build-server.js';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { type Config, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startUpstreamStub, type UpstreamStub, type UpstreamStubOptions } from './upstream-stub.js';

/** A clock that only moves when a test says so. */
export interface TestClock {
  readonly now: () => number;
  advanceSeconds(seconds: number): void;
}

export function createTestClock(start = Date.UTC(2025, 0, 1)): TestClock {
  let now = start;
  return {
    now: () => now,
    advanceSeconds(seconds) {
      now += seconds * 1000;
    },
  };
}

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger writing JSON records into an array, so tests can check what was logged. */
export function createCapturingLogger(level: Config['logLevel'] = 'warn') {
  const records: LogRecord[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString('utf8')) as LogRecord);
      done();
    },
  });
  return { logger: createLogger(level, destination), records };
}

/** A built-looking client: index.html, one hashed asset, and a secret file next to (outside) the folder. */
export function createStaticDir(): { staticDir: string; secret: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'catalogue-static-'));
  const staticDir = join(root, 'dist');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(join(staticDir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
  writeFileSync(join(staticDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const secret = 'SECRET-OUTSIDE-STATIC-DIR';
  writeFileSync(join(root, 'secret.txt'), secret);
  return { staticDir, secret, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface TestApp {
  /** The app on a real ephemeral port; pass it to supertest's `request()`. */
  server: Server;
  stub: UpstreamStub;
  clock: TestClock;
  catalogue: CachedCatalogue;
  config: Config;
  logs: LogRecord[];
  staticDir: string;
  secret: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (PRODUCTS_API_URL points at the stub). */
  env?: Record<string, string>;
  stub?: UpstreamStubOptions;
  /** Build the source from the embedded catalogue in this folder instead of the stub. */
  embeddedDirectory?: URL;
  /** Leave out index.html, as before the client is built. */
  withoutClient?: boolean;
}

/** The server as buildServer makes it, over a real upstream stub (or an embedded folder), a test clock and a captured log. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const stub = await startUpstreamStub(options.stub);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PRODUCTS_API_URL: options.embeddedDirectory ? '' : stub.url,
    LOG_LEVEL: 'warn',
    ...options.env,
  });
  const { logger, records } = createCapturingLogger(config.logLevel);
  const clock = createTestClock();
  const statics = createStaticDir();
  if (options.withoutClient) rmSync(join(statics.staticDir, 'index.html'));
  const built = await buildServer(config, {
    logger,
    now: clock.now,
    staticDir: statics.staticDir,
    ...(options.embeddedDirectory && { embeddedDirectory: options.embeddedDirectory }),
  });
  await built.listen();
  const { server, catalogue } = built;

  return {
    server,
    stub,
    clock,
    catalogue,
    config,
    logs: records,
    staticDir: statics.staticDir,
    secret: statics.secret,
    async close() {
      await catalogue.settled();
      await built.close(0);
      await stub.close();
      statics.remove();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as sent, still encoded. */
  body: Buffer;
}

/** A GET that leaves the body as it came over the wire (supertest decodes gzip on its own). */
export function rawGet(server: Server, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a port');
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: address.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
