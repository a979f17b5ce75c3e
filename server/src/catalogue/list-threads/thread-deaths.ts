import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../logger.js';

/** Why a fill's thread stopped: out of its heap (V8's cap, NODE_OPTIONS=--max-old-space-size), an error it did not catch, or an exit. */
export type DeathCause = 'out_of_memory' | 'error' | 'exit';

/** What an operator raises when a thread runs out of heap. */
const HEAP_SETTING = 'NODE_OPTIONS=--max-old-space-size';

export interface ThreadDeath {
  cause: DeathCause;
  /** One sentence: what happened and, where a setting would help, which to raise. */
  reason: string;
}

/** What the 'error' and 'exit' events of a fill's thread that stopped by itself say of why. */
export function deathOf(exitCode: number, error: Error | undefined): ThreadDeath {
  const name = "the list's fill thread";
  if (error !== undefined && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return {
      cause: 'out_of_memory',
      reason: `${name} ran out of memory past its heap cap (raise ${HEAP_SETTING} or lower UPSTREAM_MAX_BYTES)`,
    };
  }
  if (error !== undefined) return { cause: 'error', reason: `${name} failed: ${error.message}` };
  return { cause: 'exit', reason: `${name} exited (code ${exitCode}); if it was killed for memory, raise ${HEAP_SETTING}` };
}

/**
 * Each death of a fill's thread, counted (`catalogue_list_thread_restarts_total{thread="fill",cause}`: the fill is
 * tried again at the next refill) and logged in one line.
 */
export function fillDeaths(logger: Logger, registry: Registry | undefined) {
  const restarts = new Counter({
    name: 'catalogue_list_thread_restarts_total',
    help: "The list's fill threads that stopped by themselves, by cause; the fill is tried again at the next refill",
    labelNames: ['thread', 'cause'] as const,
    registers: registry === undefined ? [] : [registry],
  });
  return (death: ThreadDeath, details: Record<string, number>): void => {
    restarts.inc({ thread: 'fill', cause: death.cause });
    logger.error(
      { thread: 'fill', cause: death.cause, ...details },
      `${capitalised(death.reason)}: the list held is still served, and the fill is tried again at the next refill`,
    );
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
