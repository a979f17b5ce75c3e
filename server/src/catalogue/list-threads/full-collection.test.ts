import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage, collectGarbageSoon, collectUntilFreed } from './full-collection.js';

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

  it('until freed: tried again while what it watches is still held (a request still answering from it)', async () => {
    let held: object | undefined = { payload: new Array(1_000).fill('x') };
    const ref = new WeakRef(held);
    collectUntilFreed([held]);
    await nextTurn();
    // The first collection ran and could not free it: it is still held here.
    expect(ref.deref()).toBe(held);
    held = undefined;
    // The next try, 1 s later, finds it garbage.
    await delay(1_200);
    expect(ref.deref()).toBeUndefined();
  });
});
