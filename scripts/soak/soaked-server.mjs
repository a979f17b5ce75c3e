// The built server as the soak runs it: `node server/dist/index.js` (as `npm start` does once built) with
// `--expose-gc` and measure-hook.mjs, and an IPC channel the hook answers on: live heap after a full GC, native
// memory, open descriptors. Pinned to core 0 where the machine allows, as the bench pins it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor200 } from '../bench/http.mjs';
import { freePort, PINNING } from '../bench/processes.mjs';

const ENTRY = process.env.SOAK_SERVER_ENTRY || fileURLToPath(new URL('../../server/dist/index.js', import.meta.url));
const HOOK = new URL('./measure-hook.mjs', import.meta.url).href;

/**
 * Starts the built server in front of `productsApiUrl` with `env` on top; resolves once /healthz answers 200.
 * `pinned: false` leaves it every core, for work it does on other threads (the large catalogue's fills).
 */
export async function startSoakedServer({ productsApiUrl, env, pinned = true }) {
  const port = await freePort();
  const command = [process.execPath, '--expose-gc', '--import', HOOK, ENTRY];
  const [file, ...args] = PINNING && pinned ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(file, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PRODUCTS_API_URL: productsApiUrl, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // Log lines are read and dropped, as a log collector reads them; unread, the pipe would fill and stall it.
  child.stdout.resume();
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the soaked server exited (${code})`))));
  exited.catch(() => {});
  try {
    await Promise.race([waitFor200(`${origin}/healthz`, { timeoutMs: 20_000 }), exited]);
  } catch (error) {
    // A server that did not come up in time is nobody's to stop otherwise: it would outlive the soak.
    child.kill('SIGKILL');
    throw error;
  }

  let nextId = 0;
  function ask(type, answerType) {
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the soaked server did not answer a ${type} request within 10 s`)), 10_000);
      const onMessage = (message) => {
        if (message?.type !== answerType || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send({ type, id });
    });
  }

  return {
    origin,
    child,
    /** Full GC in the server, then its live heap, native memory and descriptors. */
    measure: () => ask('measure', 'measured'),
    /** `process.memoryUsage()` in the server as it stands, without collecting first. */
    sample: () => ask('sample', 'sampled'),
    /** Resident set size now and its peak since start (VmRSS, VmHWM), in MB. */
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const mb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) / 1024;
      return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
    },
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
