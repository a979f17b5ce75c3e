import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Rendering a page must not turn on an async hook for the rest of the process: every request after it, page or API,
// would pay for it (docs/decisions/react-edge-renderer.md: on Node 20 one AsyncLocalStorage.run() did; Node 24 runs
// AsyncLocalStorage on async context frames, with no hook, but a library may still turn one on). Seen from outside, on the built server and the built client
// (testing/built-site.ts builds both): a probe loaded into the process says, on SIGUSR2, whether a promise's
// reaction runs with an async id, which Node gives it only while some async hook is on.
const ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'catalogue-async-hooks-'));
const PROBE = join(folder, 'probe.mjs');
writeFileSync(
  PROBE,
  "import { executionAsyncId } from 'node:async_hooks';\n" +
    "process.on('SIGUSR2', () => Promise.resolve().then(() => process.stderr.write(`async hooks on: ${executionAsyncId() !== 0}\\n`)));\n",
);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Starts node with the probe loaded and these arguments; `ask()` signals it and resolves with the probe's answer. */
function probed(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', PROBE, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const answers = createInterface({ input: child.stderr })[Symbol.asyncIterator]();
  return {
    child,
    async ask(): Promise<boolean> {
      child.kill('SIGUSR2');
      const answer = await answers.next();
      if (answer.done === true) throw new Error('the process ended without answering the probe');
      return answer.value === 'async hooks on: true';
    },
    async stop(): Promise<void> {
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

describe('rendering pages', () => {
  it('leaves every async hook off in the server process, before and after a page', async () => {
    const server = probed([ENTRY], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', PRODUCTS_API_URL: '' });
    try {
      let url = '';
      for await (const line of createInterface({ input: server.child.stdout })) {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg?.startsWith('Serving the product catalogue')) {
          url = record.url ?? '';
          break;
        }
      }
      expect(await server.ask()).toBe(false);
      for (const path of ['/', '/products', '/productdetails/1', '/no-such-page']) {
        const page = await fetch(`${url}${path}`);
        // Rendered by the app, not the server's fallback: the pages' own markup.
        expect(await page.text()).toContain('id="root"><');
      }
      expect(await server.ask()).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('would see one that is on (the probe can fail)', async () => {
    const node = probed([
      '-e',
      "require('node:async_hooks').createHook({ init() {} }).enable(); console.log('ready'); setInterval(() => {}, 1000);",
    ]);
    try {
      await once(node.child.stdout, 'data');
      expect(await node.ask()).toBe(true);
    } finally {
      await node.stop();
    }
  });
});
