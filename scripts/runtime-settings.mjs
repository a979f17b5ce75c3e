// The memory settings the server runs with (docs/decisions/memory.md), in one place: `npm start`
// (scripts/start.mjs), the bench's built server and the soak apply them from here, and the Dockerfile's `ENV` line
// states the same two values (deploy/runtime-settings.test.ts holds them equal).
//   MALLOC_ARENA_MAX=2            glibc's malloc arenas capped at two: every thread that allocates (libuv's pool,
//                                 libvips') would otherwise fragment an arena of its own.
//   --max-semi-space-size=8       V8's young generation at 8 MB per semi-space: its default of 16 grows with the
//                                 request rate (about 25 MB more under the API bench) for no CPU saved per answer.
// Both take effect only when a process starts, which is why they are environment variables and not code.

export const MALLOC_ARENA_MAX = '2';
export const SEMI_SPACE_FLAG = '--max-semi-space-size=8';

/**
 * `env` with the settings added where it does not choose its own: an operator's `MALLOC_ARENA_MAX` is kept, and
 * their `NODE_OPTIONS` too, with the semi-space flag appended unless it names one.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function withRuntimeSettings(env) {
  const nodeOptions = env.NODE_OPTIONS ?? '';
  return {
    ...env,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? MALLOC_ARENA_MAX,
    NODE_OPTIONS: nodeOptions.includes('--max-semi-space-size') ? nodeOptions : `${nodeOptions} ${SEMI_SPACE_FLAG}`.trim(),
  };
}
