// The process: the only module with side effects. Everything it starts is put together by buildServer.
import { type BuiltServer, buildServer, ListenError } from './build-server.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { createLogger } from './logger.js';

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

const logger = createLogger(config.logLevel);

let running: BuiltServer;
let url: string;
try {
  running = await buildServer(config, { logger });
  url = await running.listen();
} catch (error) {
  exitWith(error instanceof ListenError ? error.message : `Start-up failed: ${String(error)}`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      logger.warn({ signal }, 'Second stop signal: exiting without waiting for requests in flight');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'Stopping: no new connections, finishing requests in flight');
    void running.close(SHUTDOWN_GRACE_MS).then(() => {
      logger.info('Stopped');
      process.exit(0);
    });
  });
}

// Logged only once the signal handlers are in place: from this line on, a stop signal is a graceful stop.
const { catalogue } = running;
logger.info({ url, source: catalogue.sourceName }, `Serving the product catalogue at ${url} (source: ${catalogue.sourceName})`);
