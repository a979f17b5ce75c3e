import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../testing/otlp-receiver.js';

// Traces off must cost nothing (docs/performance.md, "Traces"): without an OTLP endpoint the SDK is never loaded and
// no async hook is turned on, whatever the requests served. Seen from outside, on the built server, as
// pages/async-hooks.test.ts sees the renderer: a probe loaded into the process says, on SIGUSR2, whether a
// promise's reaction runs with an async id (Node gives it one only while some async hook is on) and whether any
// module of the OpenTelemetry SDK is in the process's module cache (the SDK's packages are CommonJS, cached there
// even when imported).
const ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'catalogue-traces-off-'));
const PROBE = join(folder, 'probe.mjs');
writeFileSync(
  PROBE,
  [
    "import { executionAsyncId } from 'node:async_hooks';",
    "import { createRequire } from 'node:module';",
    'const { cache } = createRequire(import.meta.url);',
    "const sdkLoaded = () => Object.keys(cache).some((path) => path.includes('@opentelemetry/sdk-trace'));",
    "process.on('SIGUSR2', () => Promise.resolve().then(() => process.stderr.write(JSON.stringify({ asyncHooks: executionAsyncId() !== 0, sdk: sdkLoaded() }) + '\\n')));",
  ].join('\n'),
);

let stub: UpstreamStub;
let receiver: OtlpReceiver;
beforeAll(async () => {
  stub = await startUpstreamStub({ photos: true });
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await Promise.all([stub.close(), receiver.close()]);
  rmSync(folder, { recursive: true, force: true });
});

/** The built server with the probe and `env`, asked after serving a page, a list view and a photo, each uncached. */
async function probeAfterRequests(env: Record<string, string>): Promise<{ asyncHooks: boolean; sdk: boolean }> {
  const child = spawn(process.execPath, ['--import', PROBE, ENTRY], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: stub.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const answers = createInterface({ input: child.stderr })[Symbol.asyncIterator]();
  try {
    let url = '';
    for await (const line of createInterface({ input: child.stdout })) {
      const record = JSON.parse(line) as { msg?: string; url?: string };
      if (record.msg?.startsWith('Serving the product catalogue')) {
        url = record.url ?? '';
        break;
      }
    }
    for (const path of ['/productdetails/2', '/api/products?limit=3', '/api/products/2/image?w=160']) {
      const response = await fetch(`${url}${path}`, {
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
    child.kill('SIGUSR2');
    const answer = await answers.next();
    if (answer.done === true) throw new Error('the process ended without answering the probe');
    return JSON.parse(answer.value) as { asyncHooks: boolean; sdk: boolean };
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}

describe('traces off (no OTLP endpoint)', () => {
  it('load no SDK module and turn no async hook on, whatever other OTEL_* variables say', async () => {
    expect(await probeAfterRequests({ OTEL_SERVICE_NAME: 'catalogue', OTEL_TRACES_SAMPLER: 'always_on' })).toEqual({
      asyncHooks: false,
      sdk: false,
    });
  });

  it('and OTEL_SDK_DISABLED=true keeps them off with an endpoint', async () => {
    expect(await probeAfterRequests({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' })).toEqual({
      asyncHooks: false,
      sdk: false,
    });
  });

  it('would see both when traces are on (the probe can fail)', async () => {
    // Node 24's AsyncLocalStorage, which the SDK's context manager uses, runs on async context frames, with no async
    // hook; with them turned off it falls back to a hook, which the probe must then see.
    expect(await probeAfterRequests({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })).toEqual({ asyncHooks: false, sdk: true });
    expect(await probeAfterRequests({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, NODE_OPTIONS: '--no-async-context-frame' })).toEqual({
      asyncHooks: true,
      sdk: true,
    });
  });
});
