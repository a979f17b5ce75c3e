import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * JSON lines on stdout (or on `destination`, which tests use to read what was logged). Writes are synchronous
 * so lines keep their order and the last ones are not lost when the process exits right after logging.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'catalogue-server' } }, destination ?? pino.destination({ dest: 1, sync: true }));
}
