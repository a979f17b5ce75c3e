// The process: the only module with side effects. Everything it starts is put together by buildServer.
import { type BuiltServer, buildServer, ListenError } from './build-server.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { createProcessLog } from './logger.js';

/** How long requests in flight may take to finish after SIGTERM/SIGINT before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Start-up failures are one line on stderr and exit code 1: an operator reads them, not a debugger. */
function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  exitWith(error instanceof ConfigError ? `Invalid configuration: ${error.message}` : String(error));
}

const log = createProcessLog(config.logLevel);
const { logger } = log;

/** The longest an exiting process waits for its log reader to take the last lines (it usually takes them at once). */
const LAST_LINES_MAX_MS = 2000;

/**
 * Exits with `code` once every line logged so far is written. A pipe whose reader is behind holds lines in memory
 * until it takes them: waited for, but not for ever, so a log reader that stopped reading cannot keep the process.
 */
function exitOnceLogged(code: number): void {
  void log.flush().then(() => process.exit(code));
  setTimeout(() => process.exit(code), LAST_LINES_MAX_MS).unref();
}

// A bug that escaped every handler: say what it was, make sure the line (and every one before it) is written,
// and exit, since the process's state can no longer be trusted. The orchestrator starts a new one.
function dieOf(error: unknown, message: string): void {
  logger.fatal({ err: error }, message);
  exitOnceLogged(1);
}
process.on('uncaughtException', (error) => dieOf(error, 'Uncaught exception: exiting'));
process.on('unhandledRejection', (reason) => dieOf(reason, 'Unhandled promise rejection: exiting'));

// Traces only with an OTLP endpoint: otherwise the SDK is never imported (tracing/start-tracing.ts).
const tracing = config.tracesEndpoint === null ? undefined : (await import('./tracing/start-tracing.js')).startTracing(logger);

let running: BuiltServer;
let url: string;
try {
  running = await buildServer(config, { logger, droppedLogLines: log.droppedLines, ...(tracing && { tracing: tracing.requests }) });
  url = await running.listen();
} catch (error) {
  exitWith(error instanceof ListenError ? error.message : `Start-up failed: ${String(error)}`);
}

/**
 * A stop signal this soon after the first is the same stop come by another path, not an operator insisting: a
 * terminal's Ctrl-C reaches every process of its group, so under `npm start` the server gets it from the terminal,
 * from scripts/start.mjs and from npm; systemd signals the whole group too.
 */
const SAME_STOP_MS = 1000;

let stoppingSince: number | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stoppingSince !== undefined) {
      if (performance.now() - stoppingSince < SAME_STOP_MS) return;
      logger.warn({ signal }, 'Second stop signal: exiting without waiting for requests in flight');
      log.flushSync();
      process.exit(1);
    }
    stoppingSince = performance.now();
    logger.info({ signal }, 'Stopping: no new connections, finishing requests in flight');
    void running.close(SHUTDOWN_GRACE_MS).then(async () => {
      // The last spans are sent (or given up within the exporter's time limit) before the process goes.
      await tracing?.shutdown();
      logger.info('Stopped');
      exitOnceLogged(0);
    });
  });
}

// Logged only once the signal handlers are in place: from this line on, a stop signal is a graceful stop.
const { catalogue } = running;
logger.info(
  { url, source: catalogue.sourceName, ...(config.tracesEndpoint !== null && { traces: config.tracesEndpoint }) },
  `Serving the product catalogue at ${url} (source: ${catalogue.sourceName})`,
);
// Written at once rather than with the next batch: supervisors and people wait for this line.
void log.flush();
