// The production server exactly as `npm start` runs it once built: `node server/dist/index.js` with the memory
// settings the container and `npm start` apply (scripts/runtime-settings.mjs), configured through the environment
// (README, "Configuration") at its defaults but for the two settings below.
// BENCH_SERVER_ENTRY names another build's entry (e.g. an older commit's server/dist/index.js) to measure it
// against the same contenders: before/after figures from one machine and one run.
import { fileURLToPath } from 'node:url';
import { waitFor200 } from './http.mjs';
import { freePort, startNode } from './processes.mjs';
import { withRuntimeSettings } from '../runtime-settings.mjs';

const ENTRY = process.env.BENCH_SERVER_ENTRY || fileURLToPath(new URL('../../server/dist/index.js', import.meta.url));
export const SERVER_CORE = 0;

/**
 * Starts the built server on a free port and waits for `GET /healthz` to answer 200. `productsApiUrl` empty
 * selects the embedded catalogue; `env` overrides the settings above (the large catalogue's refill probe sets
 * CACHE_TTL_SECONDS=0); `pinned: false` leaves it every core, for work it does on other threads (the list's fill);
 * `nodeFlags` go to node before the entry (the inspector, for hit-files.mjs).
 * Resolves with its origin, the child process, and `startupMs`: from spawning the process to that first 200
 * (polled every 5 ms).
 */
export async function startBuiltServer({ productsApiUrl = '', env = {}, pinned = true, nodeFlags = [] } = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = startNode([...nodeFlags, ENTRY], {
    ...(pinned && { core: SERVER_CORE }),
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
    await Promise.race([waitFor200(`${origin}/healthz`, { timeoutMs: 15_000, intervalMs: 5 }), exited]);
  } finally {
    child.off('exit', onExit);
  }
  return { origin, child, startupMs: performance.now() - started };
}
