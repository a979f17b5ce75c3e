import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '@catalogue/testing/free-port';
import { withRuntimeSettings } from '../../scripts/runtime-settings.mjs';

// Built before any test of this project runs (vitest.config.ts: server/src/testing/built-site.ts).
const ENTRY = fileURLToPath(new URL('../../server/dist/index.js', import.meta.url));

/** The built server as production runs it: its own process, with the image's memory settings. */
export interface BuiltCatalogue {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `127.0.0.1:<port>`, as a Prometheus target. */
  address: string;
  stop(): Promise<void>;
}

/**
 * Starts `node server/dist/index.js` on a free loopback port with these settings (README, "Configuration") and
 * resolves once `/healthz` answers. Its log is read and dropped, as a collector would read it.
 */
export async function startBuiltCatalogue(settings: Record<string, string>): Promise<BuiltCatalogue> {
  const port = await freePort();
  const child = spawn(process.execPath, [ENTRY], {
    env: withRuntimeSettings({ PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...settings }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.resume();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw new Error(`the built server did not start: ${String(error)} ${stderr}`.trim());
  }
  return { url, address: `127.0.0.1:${port}`, stop };
}

/** Bounded: 300 tries 100 ms apart. */
async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await delay(100);
  }
  throw new Error('no answer on /healthz after 30 s');
}
