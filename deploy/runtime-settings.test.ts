// The memory settings are stated twice, once where a Dockerfile needs them (its ENV line) and once where npm start,
// the bench and the soak read them (scripts/runtime-settings.mjs): held equal here, so they are one rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX, SEMI_SPACE_FLAG, withRuntimeSettings } from '../scripts/runtime-settings.mjs';

describe('the runtime settings', () => {
  it('are the ones the container image sets', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const env = /^ENV MALLOC_ARENA_MAX=(\S+) NODE_OPTIONS=(\S+)$/m.exec(dockerfile);
    expect(env?.slice(1)).toEqual([MALLOC_ARENA_MAX, SEMI_SPACE_FLAG]);
  });

  it("are added to a process's environment without overriding an operator's own", () => {
    expect(withRuntimeSettings({ PORT: '3000' })).toEqual({ PORT: '3000', MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(withRuntimeSettings({ MALLOC_ARENA_MAX: '1', NODE_OPTIONS: '--max-old-space-size=256' })).toEqual({
      MALLOC_ARENA_MAX: '1',
      NODE_OPTIONS: '--max-old-space-size=256 --max-semi-space-size=8',
    });
    expect(withRuntimeSettings({ NODE_OPTIONS: '--max-semi-space-size=4' }).NODE_OPTIONS).toBe('--max-semi-space-size=4');
  });
});
