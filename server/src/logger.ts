import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
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

const PLAIN_TOKEN = /^[\w.:-]{1,128}$/;

/**
 * The id of a request, sent back as `X-Request-Id` and logged with it: a proxy's id is reused so log lines join
 * up across hops, but only if it is a plain token; otherwise a new UUID. One rule for the Express app and the
 * hit path in front of it.
 */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && PLAIN_TOKEN.test(incoming) ? incoming : randomUUID();
}
