import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/** JSON lines on stdout (or on `destination`, which tests use to read what was logged). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'catalogue-server' } };
  return destination ? pino(options, destination) : pino(options);
}
