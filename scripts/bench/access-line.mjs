// The access line's own cost, apart from everything else a request does: `node scripts/bench/access-line.mjs`
// after a build (`npm run build -w server`). It writes the line of a cache hit a million times into a stream that
// keeps nothing, so the figure is serialising the line and handing it over, what every cached answer pays for it
// (docs/decisions/async-access-log.md), next to pino's own `logger.info` writing the same fields. The time is the
// process's CPU time, not the clock's, so other work on a shared machine changes the figures little. Figures, never a
// failure.
import { createLogger, logAccess } from '../../server/dist/logger.js';

const LINES = Number(process.env.ACCESS_LINES ?? 1_000_000);
const ROUNDS = 5;
const sink = { write: () => true };
const logger = createLogger('info', sink);
const record = {
  id: '0b5e7a2c-8d7f-4f7e-9c55-1f7d0c6f9a10',
  method: 'GET',
  url: '/api/products?limit=5&sort=desc',
  statusCode: 200,
  responseTime: 0,
  cache: 'HIT',
};

const contenders = {
  logAccess: () => logAccess(logger, record),
  'pino logger.info': () => {
    const { id, method, url, statusCode, responseTime, cache } = record;
    logger.info({ req: { id, method, url }, res: { statusCode }, responseTime, cache }, 'request completed');
  },
};

for (const [name, writeLine] of Object.entries(contenders)) {
  for (let i = 0; i < LINES / 10; i++) writeLine(); // warm-up: optimised before it is timed
  const perLine = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage();
    for (let i = 0; i < LINES; i++) writeLine();
    const { user, system } = process.cpuUsage(started);
    perLine.push(((user + system) * 1000) / LINES);
  }
  perLine.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(18)} median ${perLine[ROUNDS >> 1].toFixed(0)} ns of CPU a line (best ${perLine[0].toFixed(0)}, worst ${perLine[ROUNDS - 1].toFixed(0)})`,
  );
}
