// The bench's child processes: started pinned to a core where the machine allows it, and all of them killed
// when the bench ends, fails or is interrupted, so a run never leaves a server or a load generator behind.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:net';

const children = new Set();

/**
 * Pinning the server to core 0 and the load generator to core 1 keeps them from stealing each other's CPU, so
 * the figures describe the server rather than the scheduler. Needs two cores and `taskset` (util-linux).
 */
export const PINNING = availableParallelism() >= 2 && spawnSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * Starts `node <args>` on `core` (when pinning is possible). taskset execs node, so the child's pid is node's
 * own and /proc/<pid>/status describes the measured process. stdout is piped (children announce their port on
 * it); stderr is passed through so a crash explains itself; `ipc` opens Node's message channel to the child.
 */
export function startNode(args, { core, env = {}, ipc = false } = {}) {
  const command = [process.execPath, ...args];
  const [file, ...rest] = PINNING && core !== undefined ? ['taskset', '-c', String(core), ...command] : command;
  const stdio = ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])];
  const child = spawn(file, rest, { env: { ...process.env, ...env }, stdio });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves with the first stdout line matching `pattern` (its match), or rejects after `timeoutMs` or on exit. */
export function waitForLine(child, pattern, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) finish(null, match);
    };
    const onExit = (code) => finish(new Error(`the process exited (${code}) before printing ${pattern}`));
    function finish(error, match) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match);
    }
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Sends SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
export function stopProcess(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAllProcesses() {
  await Promise.all([...children].map((child) => stopProcess(child)));
}

/**
 * For the bench's main process only: on an uncaught error or Ctrl-C, every child is killed (synchronously, in
 * the exit handler), so nothing outlives the bench. `alsoOnExit` runs there too, for processes started by
 * libraries (chrome-launcher detaches Chromium, so it would not die with us).
 */
const exitHooks = new Set();
export function killChildrenOnExit() {
  process.once('exit', () => {
    for (const child of children) child.kill('SIGKILL');
    for (const hook of exitHooks) hook();
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the bench's processes\n`);
      process.exit(130);
    });
  }
}

/** Registers `hook` to run synchronously when the bench exits; returns a function that unregisters it. */
export function alsoOnExit(hook) {
  exitHooks.add(hook);
  return () => exitHooks.delete(hook);
}

/** A port that was free a moment ago, for processes that must be told their port up front. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Forgets the process's peak resident set size (Linux ≥ 4.0, `echo 5 > clear_refs`), so that the next reading
 * is the peak under the coming load rather than since start-up. Where that is not allowed the reading stays the
 * peak since start-up, which includes the cache fill: still an honest upper bound.
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not permitted: see above
  }
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU seconds (user + system) the process has used so far, or null off Linux. */
export function cpuSeconds(pid) {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Peak resident set size (VmHWM) in MB, or null off Linux. */
export function peakRssMb(pid) {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}
