// The load generator: autocannon in its own process (pinned to the core the server does not use), so that
// generating load never competes with the server inside one event loop.
// Run as `node load.mjs '<json options>'`; it prints one line of JSON with the figures.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startNode, waitForLine } from './processes.mjs';

/**
 * autocannon appends every response body to a string, for hooks this bench does not use (onResponse,
 * expectBody). For a 200 KB body that decoding costs its core more than the server spends answering, so the
 * load generator, not the server, would set the pace (measured: ~365 answers/s with autocannon at 100% of a
 * core against raw node:http at 8%). Bodies are still read off the socket and counted; only the copy goes.
 */
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = () => {};

const SELF = fileURLToPath(import.meta.url);
const LOAD_CORE = 1;
/** Keep-alive connections by default: enough that the server, not the round trips, sets the pace. */
export const CONNECTIONS = 50;

/**
 * Runs `connections` keep-alive connections (no pipelining) against `url` for `seconds`. Resolves with
 * requests per second (mean of the per-second samples), latency p50/p99 in ms, bytes per response, counts of
 * non-2xx answers and errors (a contender that fails requests must not look fast), and the share of a core
 * the load generator itself used.
 */
export async function measureLoad({ url, headers, seconds, connections = CONNECTIONS }) {
  const child = startNode([SELF, JSON.stringify({ url, headers, seconds, connections })], { core: LOAD_CORE });
  const [, json] = await waitForLine(child, /^(\{.*\})$/m, (seconds + 30) * 1000);
  return JSON.parse(json);
}

if (process.argv[1] === SELF) {
  const { url, headers, seconds, connections } = JSON.parse(process.argv[2]);
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ url, headers, connections, pipelining: 1, duration: seconds });
  const cpu = process.cpuUsage(cpuBefore);
  const responses = result.requests.total;
  process.stdout.write(
    `${JSON.stringify({
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bytesPerResponse: responses > 0 ? result.throughput.total / responses : 0,
      responses,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      // Near 1 means the load generator, not the server, set the pace: the figure is then a floor.
      loadGeneratorCpu: (cpu.user + cpu.system) / 1e6 / result.duration,
    })}\n`,
  );
}
