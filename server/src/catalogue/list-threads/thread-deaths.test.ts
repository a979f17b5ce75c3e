import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { deathOf } from './thread-deaths.js';

/** How a real thread stops: its exit code and the error it reported first, if any. */
async function stopped(source: string, options: { resourceLimits?: { maxOldGenerationSizeMb: number } } = {}) {
  const thread = new Worker(source, { eval: true, ...options });
  let failure: Error | undefined;
  thread.on('error', (error: Error) => (failure = error));
  // Not events.once: it would reject with the 'error' that comes first.
  const exitCode = await new Promise<number>((resolve) => thread.once('exit', resolve));
  return { exitCode, failure };
}

describe("a fill thread's death", () => {
  it('past its heap cap is out_of_memory, naming the heap setting and UPSTREAM_MAX_BYTES', async () => {
    const { exitCode, failure } = await stopped('const kept = []; for (;;) kept.push(new Array(100_000).fill(1));', {
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    expect(deathOf(exitCode, failure)).toEqual({
      cause: 'out_of_memory',
      reason:
        "the list's fill thread ran out of memory past its heap cap (raise NODE_OPTIONS=--max-old-space-size or lower UPSTREAM_MAX_BYTES)",
    });
  });

  it('on an error it did not catch is an error, with its message; on an exit, an exit with its code', async () => {
    const thrown = await stopped("throw new Error('the index is broken')");
    expect(deathOf(thrown.exitCode, thrown.failure)).toEqual({
      cause: 'error',
      reason: "the list's fill thread failed: the index is broken",
    });
    const exited = await stopped('process.exit(3)');
    expect(deathOf(exited.exitCode, exited.failure)).toMatchObject({
      cause: 'exit',
      reason: expect.stringMatching(/exited \(code 3\)/) as unknown,
    });
  });
});
