// The one harness under the benches and the soak: it starts the built server with settings, an upstream double and a
// load (Debian's `wrk`, or the contenders it is compared with), measures the processes it started, and prints figures
// with their targets. Every process it starts is killed however the run ends. Each bench is a description on top.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { withRuntimeSettings } from '../runtime-settings.mjs';

const SELF = fileURLToPath(import.meta.url);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MB = 1024 * 1024;
export const log = (line = '') => console.log(line);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A positive whole number from the environment, or `fallback`. */
export const envNumber = (name, fallback) =>
  Number.isInteger(Number(process.env[name])) && Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback;
/** A comma-separated list of numbers from the environment, or `fallback`. */
export const envNumbers = (name, fallback) => process.env[name]?.split(',').filter(Boolean).map(Number) ?? fallback;

// ---- processes ------------------------------------------------------------------------------------------------

const children = new Set();
const exitHooks = new Set();
/** Server on core 0, load generator on core 1, so they never compete for a core (needs two cores and taskset). */
export const PINNING = availableParallelism() >= 2 && spawnSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' }).status === 0;
export const SERVER_CORE = 0;
const LOAD_CORE = 1;

/** `node <args>`, pinned to `core` where possible (taskset execs node: the pid is node's); stdout piped, stderr shown. */
export function startNode(args, { core, env = {}, ipc = false } = {}) {
  const command = [process.execPath, ...args];
  const [file, ...rest] = PINNING && core !== undefined ? ['taskset', '-c', String(core), ...command] : command;
  const child = spawn(file, rest, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves with the first stdout match of `pattern`; rejects after `timeoutMs` or when the process exits. */
export function waitForLine(child, pattern, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk) => (seen += chunk) && pattern.exec(seen) && finish(null, pattern.exec(seen));
    const onExit = (code) => finish(new Error(`the process exited (${code}) before printing ${pattern}`));
    function finish(error, match) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match);
    }
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export function stopProcess(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => resolve(clearTimeout(timer)));
    child.kill('SIGTERM');
  });
}

export const stopAllProcesses = () => Promise.all([...children].map((child) => stopProcess(child)));

/** In the main process: on exit, an uncaught error or Ctrl-C every child is killed, and every `alsoOnExit` hook run. */
export function killChildrenOnExit() {
  process.once('exit', () => {
    for (const child of children) child.kill('SIGKILL');
    for (const hook of exitHooks) hook();
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
}

/** For processes a library starts detached (chrome-launcher's Chromium); returns the unregistering function. */
export function alsoOnExit(hook) {
  exitHooks.add(hook);
  return () => exitHooks.delete(hook);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
/** CPU seconds (user + system, every thread) the process has used, or null off Linux. */
export function cpuSeconds(pid) {
  const fields = read(`/proc/${pid}/stat`).split(') ')[1]?.split(' ');
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS : null;
}
/** VmRSS or VmHWM (the peak) in MB, or null off Linux. */
export const rssMb = (pid, field = 'VmRSS') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(read(`/proc/${pid}/status`))?.[1] ?? NaN) / 1024 || null;
export const peakRssMb = (pid) => rssMb(pid, 'VmHWM');
/** Forgets the peak RSS (Linux ≥ 4.0), so the next reading is the coming load's; elsewhere it stays the peak since start. */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not permitted: an honest upper bound
  }
}

// ---- HTTP -----------------------------------------------------------------------------------------------------

/** One GET, the bytes as sent (no decompression, unlike fetch), bounded by `timeoutMs`. */
export function get(url, headers = {}, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} took longer than ${timeoutMs} ms`)));
    req.on('error', reject).end();
  });
}

/** A GET that must answer 200. */
export async function get200(url, headers = {}, timeoutMs = 60_000) {
  const response = await get(url, headers, timeoutMs);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response;
}

/** The body as text, whatever its Content-Encoding. */
export function decodedText({ headers, body }) {
  const decode = { gzip: gunzipSync, br: brotliDecompressSync }[headers['content-encoding']];
  return (decode ? decode(body) : body).toString('utf8');
}

/** Polls `url` until it answers 200; resolves with the milliseconds waited. */
export async function waitFor200(url, { timeoutMs = 15_000, intervalMs = 5 } = {}) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (
      (await get(url, {}, 1000).then(
        (res) => res.status,
        () => 0,
      )) === 200
    )
      return performance.now() - started;
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

// ---- the built server -----------------------------------------------------------------------------------------

// `node server/dist/index.js` as `npm start` runs it, with the memory settings of scripts/runtime-settings.mjs, at its
// defaults but for what the benches set. BENCH_SERVER_ENTRY names another build's entry, for before/after in one run.
const ENTRY = process.env.BENCH_SERVER_ENTRY || `${ROOT}server/dist/index.js`;
const MEASURE_HOOK = new URL('../soak/measure-hook.mjs', import.meta.url).href;

/**
 * Starts the built server on a free port and waits for `/healthz` to answer 200. `productsApiUrl` empty: the embedded
 * catalogue; `env` over the settings below; `pinned: false` leaves it every core (for work on its other threads);
 * `nodeFlags` before the entry; `measured` loads scripts/soak/measure-hook.mjs (with `--expose-gc`) over an IPC channel.
 * Resolves with `{ origin, child, startupMs, stop(), cpuMs(), rss() }` and, measured, `measure()` and `sample()`.
 */
export async function startBuiltServer({ productsApiUrl = '', env = {}, pinned = true, nodeFlags = [], measured = false } = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = startNode([...(measured ? ['--expose-gc', '--import', MEASURE_HOOK] : []), ...nodeFlags, ENTRY], {
    ...(pinned && { core: SERVER_CORE }),
    ipc: measured,
    // The bench's own environment first, so that e.g. NODE_OPTIONS=--perf-basic-prof reaches the server too.
    env: withRuntimeSettings({
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PRODUCTS_API_URL: productsApiUrl,
      // LOG_LEVEL at its default (info): every answer writes its access line, as in production. The limiter counts
      // every request, but at its highest setting it refuses the one load-generating client in no run of one server.
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Long enough that every measured request is a HIT (a STALE one would start a refresh mid-run).
      CACHE_TTL_SECONDS: '3600',
      ...env,
    }),
  });
  // Its log read off the pipe and dropped, as a log collector does; unread, the pipe would stall the server.
  child.stdout.resume();
  const origin = `http://127.0.0.1:${port}`;
  let onExit;
  const exited = new Promise((_, reject) =>
    child.once('exit', (onExit = (code) => reject(new Error(`the built server exited (${code}) before answering /healthz`)))),
  );
  try {
    await Promise.race([waitFor200(`${origin}/healthz`, { timeoutMs: 20_000, intervalMs: 5 }), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    child.off('exit', onExit);
  }
  const ask = measured ? asker(child) : undefined;
  return {
    origin,
    child,
    startupMs: performance.now() - started,
    stop: () => stopProcess(child, 5_000),
    cpuMs: () => cpuSeconds(child.pid) * 1000,
    /** Resident set now and its peak since start (VmRSS, VmHWM), in MB. */
    rss: () => ({ rssMb: rssMb(child.pid), peakRssMb: peakRssMb(child.pid) }),
    ...(measured && {
      /** Full GC in the server, then its live heap, native memory and descriptors. */
      measure: () => ask('measure', 'measured'),
      /** `process.memoryUsage()` in the server as it stands. */
      sample: () => ask('sample', 'sampled'),
    }),
  };
}

/** Questions to the measure hook over IPC, each answered by id. */
function asker(child) {
  let nextId = 0;
  return (type, answerType) => {
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the built server did not answer a ${type} request within 10 s`)), 10_000);
      const onMessage = (message) => {
        if (message?.type !== answerType || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage).send({ type, id });
    });
  };
}

// ---- upstream doubles -----------------------------------------------------------------------------------------

// The one upstream double (the tests'), from the testing workspace's built `dist`: loaded when first asked for, so
// that `npm run bench` can import the harness before it builds.
const testing = (name) => import(`@catalogue/testing/${name}`);

/**
 * The upstream double serving `generateCatalogue(count)`, the same bytes on every run. Resolves with `{ url, products,
 * change(n), notModified(), listRequests(), close() }`: `change(n)` moves the first price by n cents (another ETag).
 */
export async function startUpstream(count) {
  const products = (await testing('generated-catalogue')).generateCatalogue(count);
  const double = await (await testing('upstream-double')).startUpstreamStub({ products });
  return {
    url: double.url,
    products,
    change: (n) =>
      double.setProducts(products.map((product, index) => (index === 0 ? { ...product, price: product.price + n / 100 } : product))),
    notModified: () => double.notModifiedCount('/products'),
    listRequests: () => double.requestCount('/products'),
    close: () => double.close(),
  };
}

/** The 20 fixture products with their photos (testing/src/photos.ts: JPEGs of 370–1,049 × 333–1,500 px). */
export const startPhotoUpstream = async () => (await testing('upstream-double')).startUpstreamStub({ photos: true });

/** `use(upstream, server)` on the built server in front of `upstream` (awaited), both stopped after. */
export async function withServer(upstream, options, use) {
  const up = await upstream;
  try {
    const server = await startBuiltServer({ productsApiUrl: up.url, ...options });
    try {
      return await use(server, up);
    } finally {
      await server.stop();
    }
  } finally {
    await up.close();
  }
}

// ---- load: wrk and the contenders it is pointed at ------------------------------------------------------------

// Debian's `wrk` (C, one thread, epoll) on the core the server does not use. autocannon, before it, is JavaScript
// and saturated its own core near 25k answers/s here: against raw node:http it, not the server, set the pace.
export const CONNECTIONS = 50;
export const LOAD_GENERATOR = 'wrk';
const WRK_AVAILABLE = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/**
 * `connections` keep-alive connections from one wrk thread against `url` for `seconds`. Resolves with req/s, p50/p99
 * (ms, wrk's histogram), responses, non-2xx and socket errors, and the share of a core wrk used (bash's `times`).
 */
export function measureLoad({ url, headers = {}, seconds, connections = CONNECTIONS }) {
  if (!WRK_AVAILABLE) return Promise.reject(new Error('wrk is not installed (Debian: apt-get install -y wrk)'));
  const quote = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...Object.entries(headers).flatMap(([n, v]) => ['-H', `${n}: ${v}`]),
    url,
  ];
  const wrk = ['wrk', ...args.map(quote)].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${PINNING ? `taskset -c ${LOAD_CORE} ` : ''}${wrk}; times`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`wrk exited ${code}: ${out.trim()}`);
        resolve(parseWrk(out, seconds));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** wrk's report (with --latency), then bash's `times`: the shell's CPU, then its children's. */
export function parseWrk(text, seconds) {
  const number = (pattern) => {
    const match = pattern.exec(text);
    if (match === null) throw new Error(`wrk's report has no ${pattern}:\n${text}`);
    return Number(match[1]);
  };
  const unit = (value, units, base) => {
    const match = /^([\d.]+)(\w+)$/.exec(value ?? '');
    return match ? Number(match[1]) * (typeof units === 'function' ? units(match[2]) : units[match[2]]) : base;
  };
  const ms = (value) => unit(value, { us: 0.001, ms: 1, s: 1000, m: 60_000 }, null);
  const responses = number(/(\d+) requests in /);
  const readBytes = unit(
    /requests in [\d.]+\w+, ([\d.]+\w+) read/.exec(text)?.[1],
    (u) => 1024 ** ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(u),
    0,
  );
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const cpu = [...text.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)][1];
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/^\s+50%\s+([\d.]+\w+)$/m.exec(text)?.[1]),
    p99: ms(/^\s+99%\s+([\d.]+\w+)$/m.exec(text)?.[1]),
    bytesPerResponse: responses > 0 ? readBytes / responses : 0,
    responses,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
    errors: socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0),
    // Near 1: the load generator, not the server, set the pace, and the figure is a floor.
    loadGeneratorCpu: cpu ? (Number(cpu[1]) * 60 + Number(cpu[2]) + Number(cpu[3]) * 60 + Number(cpu[4])) / seconds : null,
  };
}

/** Headers Node's http layer writes by itself; the raw contender must not send them twice. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * A reference server in a pinned process of its own, run from this file (`node harness.mjs <kind> <json>`):
 *   raw      node:http replaying `answer` (a response from `get`: the same headers and body bytes), no work per request;
 *   express  a typical proxy: Express 5, `compression()`, `res.json()` of `answer`'s JSON on every request.
 * Resolves with `{ name, url, child }`.
 */
let contenderFiles = 0;
export async function startContender(kind, answer, path = '/api/products') {
  const headers = answer.rawHeaders.flatMap((v, i, all) =>
    i % 2 === 0 && !PER_CONNECTION_HEADERS.has(v.toLowerCase()) ? [v, all[i + 1]] : [],
  );
  const prepared = kind === 'raw' ? { headers, bodyBase64: answer.body.toString('base64') } : { json: decodedText(answer), path };
  const file = join(tmpdir(), `bench-contender-${process.pid}-${(contenderFiles += 1)}.json`);
  writeFileSync(file, JSON.stringify(prepared));
  const child = startNode([SELF, kind, file], { core: SERVER_CORE });
  const [, port] = await waitForLine(child, /listening (\d+)/);
  return { name: kind === 'raw' ? 'raw node:http' : 'Express+compression', url: `http://127.0.0.1:${port}${path}`, child };
}

if (process.argv[1] === SELF) {
  const [kind, file] = process.argv.slice(2);
  const prepared = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(file);
  const { createServer } = await import('node:http');
  let handler;
  if (kind === 'raw') {
    const body = Buffer.from(prepared.bodyBase64, 'base64');
    handler = (_req, res) => res.writeHead(200, prepared.headers).end(body);
  } else {
    // Express and compression are the server workspace's dependencies: resolved from there.
    const serverRequire = createRequire(`${ROOT}server/package.json`);
    const products = JSON.parse(prepared.json);
    handler = serverRequire('express')().use(serverRequire('compression')());
    handler.get(prepared.path, (_req, res) => res.json(products));
  }
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
}

/**
 * `rounds` rounds in which every contender (`{ name, url, child }`, or `cpu()` for its CPU seconds) is loaded by wrk for `seconds`, in an order that
 * rotates so none always goes first, after a warm-up each. `beforeRun(contender, round)` may replace one (a fresh
 * server). Returns each contender with the medians of its runs: req/s, p50, p99, its process's share of a core and CPU
 * time per answer (which barely moves when other work shares the machine), peak RSS, wrk's core, failures.
 */
export async function contest(contenders, { headers, seconds, warmupSeconds = 2, rounds, beforeRun, log: print = log }) {
  for (const contender of contenders) {
    await measureLoad({ url: contender.url, headers, seconds: warmupSeconds });
    contender.runs = [];
  }
  for (let round = 0; round < rounds; round++) {
    for (const contender of contenders.map((_, i) => contenders[(i + round) % contenders.length])) {
      await beforeRun?.(contender, round);
      const pid = contender.child?.pid;
      const cpu = contender.cpu ?? (() => cpuSeconds(pid));
      if (pid) resetPeakRss(pid);
      const cpuBefore = cpu();
      const run = await measureLoad({ url: contender.url, headers, seconds });
      const cpuUsed = cpuBefore === null ? null : cpu() - cpuBefore;
      Object.assign(run, {
        peakRssMb: pid ? peakRssMb(pid) : null,
        serverCpu: cpuUsed === null ? null : cpuUsed / seconds,
        cpuPerRequestUs: run.responses ? (cpuUsed / run.responses) * 1e6 : null,
      });
      contender.runs.push(run);
      print(
        `    round ${round + 1}/${rounds}  ${contender.name.padEnd(20)} ${fmt(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50} ms  ` +
          `p99 ${run.p99} ms  peak RSS ${fmt(run.peakRssMb)} MB  CPU ${percent(run.serverCpu)} (${fmt(run.cpuPerRequestUs)} µs/answer), ` +
          `${LOAD_GENERATOR} ${percent(run.loadGeneratorCpu)}${run.non2xx || run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : ''}`,
      );
    }
  }
  return contenders.map((contender) => {
    const middle = (key) => median(contender.runs.map((run) => run[key]));
    return {
      ...contender,
      ...Object.fromEntries(
        ['requestsPerSecond', 'p50', 'p99', 'serverCpu', 'cpuPerRequestUs', 'loadGeneratorCpu'].map((key) => [key, middle(key)]),
      ),
      peakRssMb: Math.max(...contender.runs.map((run) => run.peakRssMb ?? 0)),
      failures: contender.runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    };
  });
}

// ---- figures and the report -----------------------------------------------------------------------------------

/** The median of the values measured (null and NaN left out; Infinity counts as the largest). */
export function median(values) {
  const sorted = values.filter((value) => typeof value === 'number' && !Number.isNaN(value)).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? null : sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
/** The `p`th percentile of `values`. */
export const percentile = (values, p) =>
  values.toSorted((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
/** `digits` decimals, thousands separated ("12,644"), or "n/a". */
export const fmt = (value, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value)
    ? 'n/a'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** A share of one core as a percentage. */
export const percent = (share) => (share === null || share === undefined || Number.isNaN(share) ? 'n/a' : `${Math.round(share * 100)}%`);
/** The 1-minute load average: the bench cannot make a busy machine quiet, but it can say that it was busy. */
export const loadAverage = () => Number(read('/proc/loadavg').split(' ')[0]) || null;

export function describeMachine() {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(read('/proc/cpuinfo'))?.[1] ?? 'unknown CPU';
  const chromium = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'no Chromium';
  return `${availableParallelism()} × ${cpu}, Node ${process.version}, ${chromium}`;
}

/** Every figure with its target and PASS/MISS: plain lines, or a markdown table for .bench/latest.md. */
export class Report {
  rows = [];

  /** `passed`: true, false, or null for a figure without a target. */
  add(area, figure, value, target = '', passed = null) {
    this.rows.push({ area, figure, value, target, status: passed === null ? '' : passed ? 'PASS' : 'MISS' });
  }

  lines() {
    return this.rows.map((row) => `${row.status.padEnd(4)} ${row.figure}: ${row.value}${row.target ? ` (target ${row.target})` : ''}`);
  }

  markdown({ machine, command, settings, startedAt, durationSeconds }) {
    const cell = (text) => String(text).replaceAll('|', '\\|');
    return [
      `Benchmark run of ${startedAt.toISOString()} (\`${command}\`, ${durationSeconds.toFixed(0)} s)\n\nMachine: ${machine}\n\nSettings: ${settings}\n`,
      '| area | figure | measured | target | |\n| --- | --- | --- | --- | --- |',
      ...this.rows.map((row) => `| ${cell(row.area)} | ${cell(row.figure)} | ${cell(row.value)} | ${cell(row.target)} | ${row.status} |`),
      '',
    ].join('\n');
  }
}

export function writeReport(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

// ---- Chromium and a part run alone ----------------------------------------------------------------------------

// Debian's Chromium (never a downloaded browser), headless, quiet and local: no sandbox (root in a container).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchChromium() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/**
 * A part of the bench run on its own (`node scripts/bench/<part>.mjs` after `npm run build`) when `moduleUrl` is the
 * script node runs: `measure({ log, report, browser })`, with Chromium if asked for, then its figures as the summary.
 */
export async function runAlone(moduleUrl, measure, { browser: withBrowser = false } = {}) {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  killChildrenOnExit();
  const report = new Report();
  const browser = withBrowser ? await launchChromium() : undefined;
  try {
    await measure({ log, report, browser });
  } finally {
    await browser?.close();
    await stopAllProcesses();
  }
  log(['', ...report.lines()].join('\n'));
}
