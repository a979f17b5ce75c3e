// The production server exactly as `npm start` runs it once built: `node server/dist/index.js` with the memory
// settings the container and `npm start` apply (scripts/runtime-settings.mjs), configured through the environment
// (README, "Configuration") at its defaults but for the two settings below. The one way the bench and the soak
// start it.
// BENCH_SERVER_ENTRY names another build's entry (e.g. an older commit's server/dist/index.js) to measure it
// against the same contenders: before/after figures from one machine and one run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor200 } from './http.mjs';
import { freePort, startNode, stopProcess } from './processes.mjs';
import { withRuntimeSettings } from '../runtime-settings.mjs';

const ENTRY = process.env.BENCH_SERVER_ENTRY || fileURLToPath(new URL('../../server/dist/index.js', import.meta.url));
const MEASURE_HOOK = new URL('../soak/measure-hook.mjs', import.meta.url).href;
export const SERVER_CORE = 0;

/**
 * Starts the built server on a free port and waits for `GET /healthz` to answer 200. `productsApiUrl` empty
 * selects the embedded catalogue; `env` overrides the settings above (the large catalogue's refill probe sets
 * CACHE_TTL_SECONDS=0); `pinned: false` leaves it every core, for work it does on other threads (the list's fill);
 * `nodeFlags` go to node before the entry (the inspector, for hit-files.mjs); `measured` loads
 * scripts/soak/measure-hook.mjs (with `--expose-gc`) and opens the IPC channel it answers on, for `measure()` and
 * `sample()`.
 * Resolves with its origin, the child process, `startupMs` (from spawning the process to that first 200, polled
 * every 5 ms), `stop()`, and, measured, `measure()`, `sample()` and `rss()`.
 */
export async function startBuiltServer({ productsApiUrl = '', env = {}, pinned = true, nodeFlags = [], measured = false } = {}) {
  const port = await freePort();
  const started = performance.now();
  const flags = measured ? ['--expose-gc', '--import', MEASURE_HOOK, ...nodeFlags] : nodeFlags;
  const child = startNode([...flags, ENTRY], {
    ...(pinned && { core: SERVER_CORE }),
    ipc: measured,
    // The bench's own environment first, so that e.g. NODE_OPTIONS=--perf-basic-prof reaches the server too.
    env: withRuntimeSettings({
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PRODUCTS_API_URL: productsApiUrl,
      // LOG_LEVEL is left at its default (info): every answer writes its access line, as in production.
      // The limiter counts every request, as at the default, but at its highest setting (1,000,000 a minute) it
      // refuses the load generator (one client address) in none of the bench's runs of one server: the bench
      // measures serving, not limiting. At 50,000 answers a second that is one 6 s round, so the API bench starts
      // a server for each round (api-throughput.mjs).
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Long enough that every measured request is a HIT (a STALE answer would start a refresh mid-run).
      CACHE_TTL_SECONDS: '3600',
      ...env,
    }),
  });
  // Its log lines are read off the pipe and dropped, as a log collector (Docker's, journald) reads them; unread,
  // the pipe would fill and stall the server.
  child.stdout.resume();
  const origin = `http://127.0.0.1:${port}`;
  let onExit;
  const exited = new Promise((_, reject) => {
    onExit = (code) => reject(new Error(`the built server exited (${code}) before answering /healthz`));
    child.once('exit', onExit);
  });
  try {
    await Promise.race([waitFor200(`${origin}/healthz`, { timeoutMs: 20_000, intervalMs: 5 }), exited]);
  } catch (error) {
    // A server that did not come up in time is nobody's to stop otherwise: it would outlive the caller.
    child.kill('SIGKILL');
    throw error;
  } finally {
    child.off('exit', onExit);
  }
  return {
    origin,
    child,
    startupMs: performance.now() - started,
    stop: () => stopProcess(child, 5_000),
    ...(measured && measuring(child)),
  };
}

/** What the measure hook answers over IPC, and what /proc says of the process. */
function measuring(child) {
  let nextId = 0;
  function ask(type, answerType) {
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the built server did not answer a ${type} request within 10 s`)), 10_000);
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
  };
}
