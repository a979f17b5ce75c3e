import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * JSON lines on `destination`: the process's buffered stdout (createProcessLog), a stream tests read, or by
 * default stdout written synchronously (tests and tools that log little).
 */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino({ level, base: { service: 'catalogue-server' } }, destination);
}

/** The process's logger, and how to make sure everything it was given is written before the process exits. */
export interface ProcessLog {
  logger: Logger;
  /** Resolves once every line logged so far has been written (graceful stop). */
  flush(): Promise<void>;
  /**
   * Hands every line logged so far to stdout before returning: a file, a terminal or a pipe with room (the usual
   * case) has them written; a pipe whose reader is behind holds the rest, which flush() waits for.
   */
  flushSync(): void;
}

/**
 * JSON lines on stdout, every line of one event-loop turn written together at the end of the turn
 * (docs/decisions/async-access-log.md): a synchronous write per access line cost about 30% of the throughput of
 * cached answers. Into a pipe or a socket (a container's log driver, journald) stdout is libuv's own stream: the
 * turn's lines go out in one non-blocking write on the event loop, and what the pipe cannot take now waits in
 * memory for it, in order, without blocking the server. Into a terminal or a file Node writes synchronously.
 * index.ts flushes on SIGTERM/SIGINT and on a fatal error, so no line is lost at exit.
 */
export function createProcessLog(level: LogLevel): ProcessLog {
  const turn = linesOfOneTurn(process.stdout);
  const logger = createLogger(level, turn);
  // A process.exit() elsewhere: the last turn's lines are handed over, and a pipe that has room takes them at once.
  process.once('exit', () => turn.flushSync());
  return {
    logger,
    flush: () => new Promise((resolve) => turn.flush(() => resolve())),
    flushSync: () => turn.flushSync(),
  };
}

/** The stream the process's logger writes to: stdout behind one string per turn of the event loop. */
interface TurnBuffer extends DestinationStream {
  flush(done: () => void): void;
  flushSync(): void;
}

/**
 * Every line logged during one turn of the event loop, handed to `out` as one string when the turn ends: one write
 * (one system call, when the pipe has room) for all the answers of a turn, and no string grown by appending. All
 * lines go through it, so they keep their order.
 */
function linesOfOneTurn(out: NodeJS.WriteStream): TurnBuffer {
  let lines: string[] = [];
  const hand = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    out.write(text);
  };
  // A closed stdout (EPIPE: the log reader is gone) leaves nowhere to log to; the server goes on serving.
  out.on('error', () => {});
  return {
    write(line: string) {
      if (lines.length === 0) setImmediate(hand);
      lines.push(line);
    },
    flush(done) {
      hand();
      // Called back once everything written before it is out (libuv writes a stream's requests in order).
      out.write('', () => done());
    },
    flushSync() {
      hand();
    },
  };
}

const PLAIN_TOKEN = /^[\w.:-]{1,128}$/;

/**
 * The id of a request, sent back as `X-Request-Id` and logged with it: a proxy's id is reused so log lines join
 * up across hops, but only if it is a plain token; otherwise a new UUID. One rule for the Express app and the
 * response cache in front of it.
 */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && PLAIN_TOKEN.test(incoming) ? incoming : randomUUID();
}
