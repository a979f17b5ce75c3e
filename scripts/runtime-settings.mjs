// The memory settings the server runs with (docs/decisions/memory.md), in one place: `npm start`
// (scripts/start.mjs), the bench's built server, the large-catalogue bench and the soak apply them from here, and
// the Dockerfile's `ENV` line states the same values (deploy/runtime-settings.test.ts holds them equal).
//   MALLOC_ARENA_MAX=2              glibc's malloc arenas capped at two: every thread that allocates (libuv's pool,
//                                   libvips') would otherwise fragment an arena of its own.
//   MALLOC_MMAP_THRESHOLD_=131072   every block of 128 KiB or more (photos' pixels and encodings, compression's
//                                   buffers) mapped on its own and unmapped when freed. Left unset, glibc raises the
//                                   threshold to the size of each large block freed (up to 32 MiB), and later large
//                                   blocks then fragment the arenas, which keep what they touched.
//   --max-semi-space-size=8         V8's young generation at 8 MB per semi-space: its default of 16 grows with the
//                                   request rate (about 25 MB more under the API bench) for no CPU saved per answer.
//   --max-old-space-size=1024       each thread's old generation capped at 1 GiB. Below V8's 2 GiB its heap grows
//                                   by at most 1.6× its live size between full collections instead of 4×, and a
//                                   200,000-product list still fits the thread that reads it (615 MB at most).
//                                   The flag is every thread's: V8 lets it override a worker's `resourceLimits`.
// They take effect only when a process starts, which is why they are environment variables and not code.

/** The settings as the environment states them, as the Dockerfile's `ENV` line does. */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export const V8_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=1024'];
export const RUNTIME_ENV = { ...MALLOC_SETTINGS, NODE_OPTIONS: V8_FLAGS.join(' ') };

/** `--max-old-space-size=1024` → `--max-old-space-size` */
const flagName = (flag) => flag.split('=')[0];

/**
 * `env` with the settings added where it does not choose its own: an operator's `MALLOC_*` values are kept, and
 * their `NODE_OPTIONS` too, with each of the flags appended unless it names that flag itself.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function withRuntimeSettings(env) {
  const nodeOptions = env.NODE_OPTIONS ?? '';
  const named = new Set(nodeOptions.split(/\s+/).map(flagName));
  return {
    ...env,
    ...Object.fromEntries(Object.entries(MALLOC_SETTINGS).map(([name, value]) => [name, env[name] ?? value])),
    NODE_OPTIONS: [nodeOptions, ...V8_FLAGS.filter((flag) => !named.has(flagName(flag)))].join(' ').trim(),
  };
}
