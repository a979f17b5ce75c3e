import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage, collectGarbageSoon } from './full-collection.js';

/** An object only a WeakRef points at, past the turn that made it (a WeakRef keeps its target alive till then). */
async function unheld(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: new Array(1_000).fill('x') });
  await nextTurn();
  return ref;
}

describe('a full collection', () => {
  it('frees what nothing holds any more, and leaves no gc on the global', async () => {
    const globalGc: unknown = Reflect.get(globalThis, 'gc');
    const ref = await unheld();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(Reflect.get(globalThis, 'gc')).toBe(globalGc);
  });

  it('soon: once the work queued is done', async () => {
    const ref = await unheld();
    collectGarbageSoon();
    collectGarbageSoon();
    expect(ref.deref()).toBeDefined();
    await nextTurn();
    expect(ref.deref()).toBeUndefined();
  });
});
