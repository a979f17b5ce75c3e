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
  /** Writes every line logged so far before returning (a fatal error, when the event loop cannot be trusted). */
  flushSync(): void;
}

/**
 * Lines wait until this many bytes are buffered (or a flush): one write per batch of about ten access lines
 * rather than a system call per request. Above 0, so that a flush waits for writes in flight to finish.
 */
const MIN_WRITE_BYTES = 2048;
/**
 * The largest single write: what piles up while a write is in flight goes out in one write of up to this much,
 * not one per turn. Each write is a hand-over to libuv's thread pool and back (on a busy core, two context
 * switches), so under load fewer, larger writes are what the log costs least with.
 */
const MAX_WRITE_BYTES = 64 * 1024;
/** The longest a line waits in the buffer when traffic is too light to fill it. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * JSON lines on stdout, written asynchronously in batches (docs/decisions/async-access-log.md): a synchronous
 * write per access line cost about 30% of the throughput of cached answers. Lines keep their order; index.ts
 * flushes on SIGTERM/SIGINT and on a fatal error, so none is lost at exit.
 */
export function createProcessLog(level: LogLevel): ProcessLog {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: MIN_WRITE_BYTES,
    maxWrite: MAX_WRITE_BYTES,
    // Bytes, not strings: SonicBoom then counts lengths without measuring the UTF-8 size of its buffer on every
    // write, and after each write does not encode the whole string a second time to find what is left.
    contentMode: 'buffer',
  });
  const turn = linesOfOneTurn(destination);
  const logger = createLogger(level, turn);
  // One flush at a time: under steady load SonicBoom may not drain for a while, and every flush waiting for it
  // holds a 'drain' and an 'error' listener (eleven seconds of load used to warn of a listener leak).
  let flushing = false;
  setInterval(() => {
    if (flushing) return;
    flushing = true;
    turn.flush(() => (flushing = false));
  }, FLUSH_INTERVAL_MS).unref();
  // pino flushes its destination synchronously at exit; the lines of the last turn go first.
  process.once('exit', () => turn.flushSync());
  return {
    logger,
    flush: () => new Promise((resolve) => turn.flush(() => resolve())),
    flushSync: () => turn.flushSync(),
  };
}

/** The stream the process's logger writes to: SonicBoom behind one string per turn of the event loop. */
interface TurnBuffer extends DestinationStream {
  flush(done: () => void): void;
  flushSync(): void;
}

/**
 * Every line logged during one turn of the event loop, handed to SonicBoom as one buffer when the turn ends: one
 * UTF-8 encoding per turn, and no string grown by appending (SonicBoom would otherwise measure and flatten it for
 * each line; measured: 1.2 µs of process CPU per line, 0.75 µs handed over once a turn). All lines go through it,
 * so they keep their order.
 */
function linesOfOneTurn(destination: ReturnType<typeof pino.destination>): TurnBuffer {
  let lines: string[] = [];
  const hand = () => {
    if (lines.length === 0) return;
    const bytes = Buffer.from(lines.join(''));
    lines = [];
    // In contentMode 'buffer' SonicBoom takes Buffers; its types only declare the string form.
    destination.write(bytes as unknown as string);
  };
  return {
    write(line: string) {
      if (lines.length === 0) setImmediate(hand);
      lines.push(line);
    },
    flush(done) {
      hand();
      // Its callback also reports fsync's refusal on a pipe, which is no failure to write.
      destination.flush(() => done());
    },
    flushSync() {
      hand();
      destination.flushSync();
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
