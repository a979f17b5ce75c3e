// The memory settings are stated twice, once where a Dockerfile needs them (its ENV line) and once where npm start,
// the bench and the soak read them (scripts/runtime-settings.mjs): held equal here, so they are one rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_ENV, withRuntimeSettings } from '../scripts/runtime-settings.mjs';

describe('the runtime settings', () => {
  it('are the ones the container image sets', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const line = dockerfile.split('\n').find((text) => text.startsWith('ENV MALLOC_ARENA_MAX='));
    // NAME=value pairs, a value with spaces in double quotes, as Docker reads them.
    const stated = new Map<string, string>();
    for (const [, name = '', value = ''] of (line ?? '').matchAll(/(\w+)=("[^"]*"|\S+)/g)) stated.set(name, value.replace(/^"|"$/g, ''));
    expect(Object.fromEntries(stated)).toEqual(RUNTIME_ENV);
  });

  it("are added to a process's environment without overriding an operator's own", () => {
    expect(withRuntimeSettings({ PORT: '3000' })).toEqual({
      PORT: '3000',
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '131072',
      NODE_OPTIONS: '--max-semi-space-size=8 --max-old-space-size=1024',
    });
    expect(withRuntimeSettings({ MALLOC_ARENA_MAX: '1', NODE_OPTIONS: '--max-old-space-size=256' })).toEqual({
      MALLOC_ARENA_MAX: '1',
      MALLOC_MMAP_THRESHOLD_: '131072',
      NODE_OPTIONS: '--max-old-space-size=256 --max-semi-space-size=8',
    });
    expect(withRuntimeSettings({ NODE_OPTIONS: '--max-semi-space-size=4 --inspect' }).NODE_OPTIONS).toBe(
      '--max-semi-space-size=4 --inspect --max-old-space-size=1024',
    );
  });
});
