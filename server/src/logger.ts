import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { LogLevel } from './config.js';
import type { CacheStatus } from './outcomes/cache-status.js';

/** Where a logger's lines go, kept beside it for the one line this module writes itself (logAccess). */
const DESTINATION = Symbol('log destination');

/** pino's logger, and the stream it writes to: every logger the server uses is made by createLogger. */
export type Logger = PinoLogger & { readonly [DESTINATION]: DestinationStream };

/** The fields every line carries, after its level and time. */
const BASE = { service: 'catalogue-server' };
/** BASE as pino writes it into each line: `,"service":"catalogue-server"`. */
const BASE_JSON = `,${JSON.stringify(BASE).slice(1, -1)}`;
/** `,"time":<epoch ms>`: pino's default, named so the access line writes the very same. */
const TIME = pino.stdTimeFunctions.epochTime;

/**
 * JSON lines on `destination`: the process's buffered stdout (createProcessLog), a stream tests read, or by
 * default stdout written synchronously (tests and tools that log little).
 */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return Object.assign(pino({ level, base: BASE, timestamp: TIME }, destination), { [DESTINATION]: destination });
}

/**
 * Probes and scrapes arrive every few seconds and would drown the visitors' requests; /metrics counts them. Traces
 * leave them out too (tracing/request-spans.ts).
 */
export const UNLOGGED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** What one access-log line says about a request and its answer. */
export interface AccessRecord {
  /** requestIdFor's (below): a UUID or a plain token, nothing JSON would escape. */
  id: string;
  /** As Node's parser accepted it: a token, nothing JSON would escape. */
  method: string;
  /** As the client sent it: path and query. */
  url: string;
  statusCode: number;
  /** Whole milliseconds from the request's arrival to its answer. */
  responseTime: number;
  /** The answer's X-Cache, if it has one. */
  cache: CacheStatus | undefined;
}

/**
 * Writes the access-log line of one request: the one function both paths call (the Express app's middleware,
 * http/access-log.ts, and the response cache in front of it), so their lines cannot differ. 5xx answers are logged
 * as errors.
 *
 * The line is the JSON `logger[level]({ req, res, responseTime, cache }, message)` would write, byte for byte
 * (logger.test.ts holds them equal), but serialised here and handed to the logger's own stream, so it keeps its
 * place among the other lines: pino's general serialiser costs about five times as much (docs/decisions/
 * async-access-log.md), and this line is paid by every cached answer. This module made the logger, so it knows its
 * stream, its base fields and its time without reaching into pino. The URL, the one string a client chooses freely,
 * goes through JSON.stringify; the id, the method, the cache status and the message need no escaping by
 * construction (their types say why), so they are written between quotes as they are; the rest are numbers.
 */
export function logAccess(
  logger: Logger,
  { id, method, url, statusCode, responseTime, cache }: AccessRecord,
  message: 'request completed' | 'request aborted' = 'request completed',
): void {
  if (UNLOGGED_PATHS.has(url)) return;
  const level = statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[DESTINATION].write(
    `{"level":${logger.levels.values[level]}${TIME()}${BASE_JSON}` +
      `,"req":{"id":"${id}","method":"${method}","url":${JSON.stringify(url)}}` +
      `,"res":{"statusCode":${statusCode}},"responseTime":${responseTime}` +
      `${cache === undefined ? '' : `,"cache":"${cache}"`},"msg":"${message}"}\n`,
  );
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
  /** How many lines were dropped, not written, while stdout's reader was too far behind (STDOUT_BACKLOG_MAX_BYTES). */
  readonly droppedLines: () => number;
}

/**
 * How far stdout's reader may fall behind (in characters waiting for it, about bytes) before the process drops log
 * lines instead of queueing them: some 30,000 access lines, seconds of logging at full load, so a reader that is
 * slow for a moment loses nothing. Past it, a reader that stopped reading would otherwise have the process hold every
 * line it logs, without bound.
 */
export const STDOUT_BACKLOG_MAX_BYTES = 8 * 1024 * 1024;

/**
 * JSON lines on stdout, every line of one event-loop turn written together at the end of the turn
 * (docs/decisions/async-access-log.md): a synchronous write per access line cost about 30% of the throughput of
 * cached answers. Into a pipe or a socket (a container's log driver, journald) stdout is libuv's own stream: the
 * turn's lines go out in one non-blocking write on the event loop, and what the pipe cannot take now waits in
 * memory for it, in order, without blocking the server. Into a terminal or a file Node writes synchronously.
 * index.ts flushes on SIGTERM/SIGINT and on a fatal error, so no line is lost at exit.
 */
export function createProcessLog(level: LogLevel): ProcessLog {
  // Whether lines are being dropped is said on stderr, which does not wait behind stdout's reader.
  const aside = createLogger(level, process.stderr);
  const turn = linesOfOneTurn(process.stdout, aside);
  const logger = createLogger(level, turn);
  // A process.exit() elsewhere: the last turn's lines are handed over, and a pipe that has room takes them at once.
  process.once('exit', () => turn.flushSync());
  return {
    logger,
    flush: () => new Promise((resolve) => turn.flush(() => resolve())),
    flushSync: () => turn.flushSync(),
    droppedLines: () => turn.dropped,
  };
}

/** The stream the process's logger writes to: stdout behind one string per turn of the event loop. */
interface TurnBuffer extends DestinationStream {
  flush(done: () => void): void;
  flushSync(): void;
  readonly dropped: number;
}

/**
 * Every line logged during one turn of the event loop, handed to `out` as one string when the turn ends: one write
 * (one system call, when the pipe has room) for all the answers of a turn, and no string grown by appending. All
 * lines go through it, so they keep their order. While more than STDOUT_BACKLOG_MAX_BYTES wait for `out`'s reader,
 * a turn's lines are counted and dropped instead, until the reader has taken everything queued; `aside` says when
 * that starts and ends.
 */
function linesOfOneTurn(out: NodeJS.WriteStream, aside: Logger): TurnBuffer {
  let lines: string[] = [];
  let dropped = 0;
  let dropping = false;
  const hand = () => {
    if (lines.length === 0) return;
    if (dropping || out.writableLength > STDOUT_BACKLOG_MAX_BYTES) {
      if (!dropping) startDropping();
      dropped += lines.length;
      lines = [];
      return;
    }
    const text = lines.join('');
    lines = [];
    out.write(text);
  };
  function startDropping(): void {
    dropping = true;
    const droppedBefore = dropped;
    aside.warn(
      { backlogBytes: out.writableLength },
      "Dropping log lines: stdout's reader is too far behind (log_lines_dropped_total counts them)",
    );
    // The backlog was past the stream's high-water mark, so 'drain' comes once the reader has taken all of it.
    out.once('drain', () => {
      dropping = false;
      aside.warn({ droppedLines: dropped - droppedBefore }, "Logging again: stdout's reader has caught up");
    });
  }
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
    get dropped() {
      return dropped;
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
