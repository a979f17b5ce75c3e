// The load generator: Debian's `wrk` (C, one thread, epoll), pinned to the core the server does not use, so that
// generating load never competes with the server for a core. autocannon, the generator before it, is JavaScript
// and saturated its own core near 25k answers/s on this machine: against raw node:http it, not the server, set
// the pace, and every ratio to that ceiling came out nearer 1 than it is.
import { spawn, spawnSync } from 'node:child_process';
import { PINNING } from './processes.mjs';

const LOAD_CORE = 1;
/** Keep-alive connections by default: enough that the server, not the round trips, sets the pace. */
export const CONNECTIONS = 50;
/** The load generator, as the bench's reports name it. */
export const LOAD_GENERATOR = 'wrk';

/** Whether `wrk` can run here; the bench's load parts say how to get it when it cannot. */
export const WRK_AVAILABLE = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/**
 * Runs `connections` keep-alive connections from one wrk thread (no pipelining) against `url` for `seconds`.
 * Resolves with requests per second, latency p50/p99 in ms (wrk's own histogram), bytes per response, counts of
 * non-2xx answers and socket errors (a contender that fails requests must not look fast), and the share of a core
 * wrk itself used (from bash's `times`, which reports what its child used).
 */
export function measureLoad({ url, headers = {}, seconds, connections = CONNECTIONS }) {
  if (!WRK_AVAILABLE) return Promise.reject(new Error('wrk is not installed (Debian: apt-get install -y wrk)'));
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ];
  const wrk = ['wrk', ...args.map(shellQuote)].join(' ');
  const command = PINNING ? `taskset -c ${LOAD_CORE} ${wrk}; times` : `${wrk}; times`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`wrk exited ${code}: ${err.trim() || out.trim()}`);
        resolve(parseWrk(out, seconds));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** wrk's report (with --latency), then bash's `times`: the shell's own CPU, then its children's. */
export function parseWrk(text, seconds) {
  const number = (pattern) => {
    const match = pattern.exec(text);
    if (match === null) throw new Error(`wrk's report has no ${pattern}:\n${text}`);
    return Number(match[1]);
  };
  const responses = number(/(\d+) requests in /);
  const readBytes = bytes(/requests in [\d.]+\w+, ([\d.]+\w+) read/.exec(text)?.[1] ?? '0B');
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const cpuLines = [...text.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)];
  const childCpu =
    cpuLines[1] && Number(cpuLines[1][1]) * 60 + Number(cpuLines[1][2]) + Number(cpuLines[1][3]) * 60 + Number(cpuLines[1][4]);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: milliseconds(/^\s+50%\s+([\d.]+\w+)$/m.exec(text)?.[1]),
    p99: milliseconds(/^\s+99%\s+([\d.]+\w+)$/m.exec(text)?.[1]),
    bytesPerResponse: responses > 0 ? readBytes / responses : 0,
    responses,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
    errors: socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0),
    // Near 1 means the load generator, not the server, set the pace: the figure is then a floor.
    loadGeneratorCpu: childCpu === undefined ? null : childCpu / seconds,
  };
}

/** wrk prints durations as `812.00us`, `1.23ms`, `1.02s`. */
function milliseconds(value) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value ?? '');
  if (match === null) return null;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]];
  return Number(match[1]) * scale;
}

/** wrk prints sizes as `1.23MB`, `512.00KB`, `800B` (binary multiples). */
function bytes(value) {
  const match = /^([\d.]+)([KMGT]?B)$/.exec(value);
  if (match === null) return 0;
  return Number(match[1]) * 1024 ** ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(match[2]);
}

function shellQuote(value) {
  return `'${String(value).replaceAll("'", `'\\''`)}'`;
}
