import { Writable } from 'node:stream';
import type { LogLevel } from '../config.js';
import { createLogger, type Logger } from '../logger.js';

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The server's logger writing its JSON records into an array, so tests can check what was logged. */
export function createCapturingLogger(level: LogLevel = 'warn'): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString('utf8')) as LogRecord);
      done();
    },
  });
  return { logger: createLogger(level, destination), records };
}
