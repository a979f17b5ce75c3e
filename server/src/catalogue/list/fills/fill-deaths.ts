import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../../logger.js';

/**
 * Why a fill's process stopped before it replied: out of its heap (V8 aborts past its cap,
 * NODE_OPTIONS=--max-old-space-size), killed by a signal (the kernel's out-of-memory killer sends SIGKILL), an exit, or
 * ended by the server after it went silent (stalled).
 */
export type DeathCause = 'out_of_memory' | 'killed' | 'exit' | 'stalled';

/** What an operator raises when a fill runs out of heap. */
const HEAP_SETTING = 'NODE_OPTIONS=--max-old-space-size';
const NAME = "the list's fill process";

export interface FillDeath {
  cause: DeathCause;
  /** One sentence: what happened and, where a setting would help, which to raise. */
  reason: string;
}

/** What a fill's process that stopped by itself says of why, by its exit code or signal. */
export function deathOf(exitCode: number | null, signal: NodeJS.Signals | null): FillDeath {
  if (signal === 'SIGABRT' || exitCode === 134) {
    return {
      cause: 'out_of_memory',
      reason: `${NAME} aborted, as V8 does past its heap cap (raise ${HEAP_SETTING} or lower UPSTREAM_MAX_BYTES)`,
    };
  }
  if (signal !== null) return { cause: 'killed', reason: `${NAME} was killed (${signal}); if it was for memory, give the container more` };
  return { cause: 'exit', reason: `${NAME} exited (code ${exitCode})` };
}

/** A fill's process that said nothing for longer than it may (fills/list-fills.ts), ended by the server. */
export function stalledDeath(silentMaxMs: number): FillDeath {
  return { cause: 'stalled', reason: `${NAME} stalled (silent for ${silentMaxMs} ms, UPSTREAM_TIMEOUT_MS) and was ended` };
}

/**
 * Each death of a fill's process, counted (`catalogue_fill_process_deaths_total{cause}`: the fill is tried again at
 * the next refill) and logged in one line. The counter's old name, `catalogue_list_thread_restarts_total{thread="fill",
 * cause}`, counts the same for one more release so that dashboards and alerts can move (docs/operations.md, "Metrics
 * renamed").
 */
export function fillDeaths(logger: Logger, registry: Registry | undefined) {
  const registers = registry === undefined ? [] : [registry];
  const deaths = new Counter({
    name: 'catalogue_fill_process_deaths_total',
    help: "The list's fills whose process stopped by itself before it replied, by cause; the fill is tried again at the next refill",
    labelNames: ['cause'] as const,
    registers,
  });
  const deathsByOldName = new Counter({
    name: 'catalogue_list_thread_restarts_total',
    help: 'Deprecated: catalogue_fill_process_deaths_total, under its old name and label, for one more release',
    labelNames: ['thread', 'cause'] as const,
    registers,
  });
  return (death: FillDeath, details: Record<string, number | string | null>): void => {
    deaths.inc({ cause: death.cause });
    deathsByOldName.inc({ thread: 'fill', cause: death.cause });
    logger.error(
      { process: 'fill', cause: death.cause, ...details },
      `${capitalised(death.reason)}: the list held is still served, and the fill is tried again at the next refill`,
    );
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
