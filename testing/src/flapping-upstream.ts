import type { StubMode, UpstreamStub } from './upstream-double.js';

/**
 * An upstream's bad day, in the order the soak plays it: every way the double can fail (a 500, an answer too
 * slow, garbage in a 200, refused connections, requests that never answer, reset connections), each between two
 * healthy spells so caches refill in between, as a real outage comes and goes.
 */
export const FLAPPING_MODES: readonly StubMode[] = [
  'normal',
  'status500',
  'normal',
  'slow',
  'badJson',
  'normal',
  'refuse',
  'normal',
  'hang',
  'html',
  'normal',
  'reset',
];

export interface Flapping {
  /** The modes played so far, in order. */
  readonly played: readonly StubMode[];
  /** Stops flapping and leaves the double healthy (`normal`); resolves once it listens again. */
  stop(): Promise<void>;
}

/**
 * Moves `stub` through `modes` (FLAPPING_MODES by default), one every `phaseMs`, round and round until stopped.
 * Requests held by a `hang` phase stay held when it ends: whoever waits on them must give up on their own.
 */
export function startFlapping(
  stub: UpstreamStub,
  { phaseMs, modes = FLAPPING_MODES }: { phaseMs: number; modes?: readonly StubMode[] },
): Flapping {
  const played: StubMode[] = [];
  let next = 0;
  // Mode changes run one after another: `refuse` and leaving it close and reopen the listener.
  let changing = Promise.resolve();
  const change = (mode: StubMode) => {
    changing = changing.then(() => stub.setMode(mode));
    return changing;
  };
  const step = () => {
    const mode = modes[next % modes.length] ?? 'normal';
    next += 1;
    played.push(mode);
    void change(mode);
  };
  step();
  const timer = setInterval(step, phaseMs);
  return {
    played,
    async stop() {
      clearInterval(timer);
      await change('normal');
    },
  };
}
