import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../logger.js';

/** Which of the list's threads stopped before it was told to. */
export type ListThread = 'keeper' | 'fill';
/** Why: out of its heap (V8's cap, NODE_OPTIONS=--max-old-space-size), an error it did not catch, or an exit. */
export type DeathCause = 'out_of_memory' | 'error' | 'exit';

/** What an operator raises when a thread runs out of heap. */
const HEAP_SETTING = 'NODE_OPTIONS=--max-old-space-size';

export interface ThreadDeath {
  cause: DeathCause;
  /** One sentence: what happened and, where a setting would help, which to raise. */
  reason: string;
}

/** What the 'error' and 'exit' events of a thread that stopped by itself say of why. */
export function deathOf(thread: ListThread, exitCode: number, error: Error | undefined): ThreadDeath {
  const name = thread === 'keeper' ? "the list keeper's thread" : "the list's fill thread";
  if (error !== undefined && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    const raise = thread === 'fill' ? `raise ${HEAP_SETTING} or lower UPSTREAM_MAX_BYTES` : `raise ${HEAP_SETTING}`;
    return { cause: 'out_of_memory', reason: `${name} ran out of memory past its heap cap (${raise})` };
  }
  if (error !== undefined) return { cause: 'error', reason: `${name} failed: ${error.message}` };
  return { cause: 'exit', reason: `${name} exited (code ${exitCode}); if it was killed for memory, raise ${HEAP_SETTING}` };
}

/**
 * Each death of one of the list's threads, counted (`catalogue_list_thread_restarts_total{thread,cause}`: the keeper is
 * restarted, a fill is retried at the next refill) and logged in one line.
 */
export function threadDeaths(logger: Logger, registry: Registry | undefined) {
  const restarts = new Counter({
    name: 'catalogue_list_thread_restarts_total',
    help: "The list's threads that stopped by themselves, by thread (keeper: restarted; fill: retried at the next refill) and cause",
    labelNames: ['thread', 'cause'] as const,
    registers: registry === undefined ? [] : [registry],
  });
  return (thread: ListThread, death: ThreadDeath, details: Record<string, number>): void => {
    restarts.inc({ thread, cause: death.cause });
    const consequence =
      thread === 'keeper'
        ? 'its list is answered on the request thread until it is restarted'
        : 'the list held is still served, and the fill is tried again at the next refill';
    logger.error({ thread, cause: death.cause, ...details }, `${capitalised(death.reason)}: ${consequence}`);
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
