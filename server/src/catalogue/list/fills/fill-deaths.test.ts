import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { deathOf } from './fill-deaths.js';

/** How a real process stops: its exit code, or the signal that ended it. */
async function stopped(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  const [exitCode, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { exitCode, signal };
}

describe("a fill process's death", () => {
  it('past its heap cap is out_of_memory (V8 aborts), naming the heap setting and UPSTREAM_MAX_BYTES', async () => {
    const { exitCode, signal } = await stopped([
      '--max-old-space-size=16',
      '-e',
      'const kept = []; for (;;) kept.push(new Array(100_000).fill(1));',
    ]);
    expect(deathOf(exitCode, signal)).toEqual({
      cause: 'out_of_memory',
      reason:
        "the list's fill process aborted, as V8 does past its heap cap (raise NODE_OPTIONS=--max-old-space-size or lower UPSTREAM_MAX_BYTES)",
    });
  });

  it('killed is killed, with its signal; an exit is an exit, with its code', async () => {
    const killed = await stopped(['-e', "process.kill(process.pid, 'SIGKILL')"]);
    expect(deathOf(killed.exitCode, killed.signal)).toMatchObject({
      cause: 'killed',
      reason: expect.stringMatching(/killed \(SIGKILL\)/) as unknown,
    });
    const exited = await stopped(['-e', 'process.exit(3)']);
    expect(deathOf(exited.exitCode, exited.signal)).toEqual({ cause: 'exit', reason: "the list's fill process exited (code 3)" });
  });
});
