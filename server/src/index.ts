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

/** The longest a dying process waits for its log reader to take the last lines (it usually takes them at once). */
const FATAL_FLUSH_MS = 2000;

// A bug that escaped every handler: say what it was, make sure the line (and every one before it) is written,
// and exit, since the process's state can no longer be trusted. The orchestrator starts a new one. A pipe whose
// reader is behind holds lines in memory until it takes them: waited for, but not for ever.
function dieOf(error: unknown, message: string): void {
  logger.fatal({ err: error }, message);
  void log.flush().then(() => process.exit(1));
  setTimeout(() => process.exit(1), FATAL_FLUSH_MS).unref();
}
process.on('uncaughtException', (error) => dieOf(error, 'Uncaught exception: exiting'));
process.on('unhandledRejection', (reason) => dieOf(reason, 'Unhandled promise rejection: exiting'));

let running: BuiltServer;
let url: string;
try {
  running = await buildServer(config, { logger, droppedLogLines: log.droppedLines });
  url = await running.listen();
} catch (error) {
  exitWith(error instanceof ListenError ? error.message : `Start-up failed: ${String(error)}`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      logger.warn({ signal }, 'Second stop signal: exiting without waiting for requests in flight');
      log.flushSync();
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'Stopping: no new connections, finishing requests in flight');
    void running
      .close(SHUTDOWN_GRACE_MS)
      .then(() => {
        logger.info('Stopped');
        return log.flush();
      })
      .then(() => process.exit(0));
  });
}

// Logged only once the signal handlers are in place: from this line on, a stop signal is a graceful stop.
const { catalogue } = running;
logger.info({ url, source: catalogue.sourceName }, `Serving the product catalogue at ${url} (source: ${catalogue.sourceName})`);
// Written at once rather than with the next batch: supervisors and people wait for this line.
void log.flush();
