// What the two Swarm tests share (docs/scaling.md, "The fleet test: a Swarm under load" and "The three-node
// drill"): the docker commands, the stack's tasks as they run, the steady load through nginx, and the steps with their checks and
// per-step report. scripts/docker/fleet.mjs (one node) and scripts/docker/swarm-drill.mjs (three) are the steps.
//
// The load: about RATE requests/s over API, page and photo URLs, all warmed first, and the uncached /healthz, whose
// X-Replica header says which replica answered. A step runs its action, waits for the swarm to converge, holds the
// load a while, then checks that every replica then running answered some of it and no other did, and that nginx
// on the node the load goes through is still the task it was (a replaced one would have lost its cache and its
// clients' connections). Timings are printed, never judged.
import { execFile } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';

// A request that takes longer than this counts as failed (a killed replica costs nginx a 2 s connect timeout).
const REQUEST_TIMEOUT_MS = 20_000;
// How long the load runs over each converged state before the spread is judged.
const HOLD_MS = 10_000;
// How long after converging nginx may still use an address it resolved before (its resolver's valid=1s, plus margin).
const SETTLE_MS = 2_000;
export const CONVERGE_TIMEOUT_MS = 120_000;

const run = promisify(execFile);
/** One docker command (DOCKER_HOST in this process's environment chooses the engine), its output trimmed. */
export async function docker(...args) {
  const { stdout } = await run('docker', args, { timeout: 120_000 });
  return stdout.trim();
}
export const log = (prefix, message) => console.log(`[${prefix} ${new Date().toISOString().slice(11, 19)}] ${message}`);
export const seconds = (ms) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

const IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
function mix(categories) {
  const ids = Array.from({ length: 20 }, (_, index) => index + 1);
  return [
    ...Array.from({ length: 10 }, () => ({ path: '/healthz' })),
    { path: '/api/products' },
    { path: '/api/products?limit=5&sort=desc' },
    { path: '/api/products/categories' },
    ...categories.map((category) => ({ path: `/api/products/category/${encodeURIComponent(category)}` })),
    ...ids.map((id) => ({ path: `/api/products/${id}` })),
    { path: '/', accept: 'text/html' },
    { path: '/products', accept: 'text/html' },
    ...ids.slice(0, 6).map((id) => ({ path: `/productdetails/${id}`, accept: 'text/html' })),
    ...ids.slice(0, 8).map((id) => ({ path: `/api/products/${id}/image`, accept: IMAGE_ACCEPT })),
    ...ids.slice(0, 8).map((id) => ({ path: `/api/products/${id}/image?w=320`, accept: IMAGE_ACCEPT })),
  ];
}

/**
 * Starts a run against `stack`, whose nginx answers at `base`: warms every URL, starts the load, and returns the
 * steps' tools. `entryNode` (a node ID) is the node whose nginx the load goes through; unset: every node's.
 */
export async function startRun({ prefix, stack, base, ratePerSecond, entryNode }) {
  const service = (name) => `${stack}_${name}`;
  const say = (message) => log(prefix, message);

  /**
   * The tasks of a service whose containers run now, with their node, address on the stack's network and image:
   * those the swarm wants running and those it is still stopping (a scale-down's, a rolling update's old ones),
   * which nginx may still reach. Not those on a node that is down: the swarm keeps the last state they reported.
   */
  async function runningTasks(name) {
    const ids = (await docker('service', 'ps', service(name), '-q')).split('\n').filter(Boolean);
    if (ids.length === 0) return [];
    const down = new Set(
      (await docker('node', 'ls', '--format', '{{.ID}} {{.Status}}'))
        .split('\n')
        .filter((line) => !line.endsWith(' Ready'))
        .map((line) => line.split(' ')[0]),
    );
    const format =
      '{{.ID}} {{.Status.State}} {{.Status.Timestamp.UnixMilli}} {{.NodeID}} {{.Spec.ContainerSpec.Image}} {{range .NetworksAttachments}}{{range .Addresses}}{{.}} {{end}}{{end}}';
    let lines;
    try {
      lines = await docker('inspect', '--type', 'task', '--format', format, ...ids);
    } catch (error) {
      // A task removed between the two commands (a scale-down deletes its tasks): the others are still described.
      if (!/^(Error response from daemon: task \S+ not found\s*)+$/.test(error.stderr ?? '')) throw error;
      lines = error.stdout.trim();
    }
    return lines
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, state, , node]) => state === 'running' && !down.has(node))
      .map(([id, , since, node, image, address]) => ({
        id,
        node,
        image,
        runningSince: Number(since),
        address: `${(address ?? '').split('/')[0]}:3000`,
      }));
  }

  /** Waits until exactly `count` tasks of the service run, none still stopping, and `accept` (if given) likes them. */
  async function converged(name, count, accept = () => true) {
    const started = Date.now();
    for (;;) {
      const tasks = await runningTasks(name);
      if (tasks.length === count && tasks.every(accept)) return tasks;
      if (Date.now() - started > CONVERGE_TIMEOUT_MS) {
        throw new Error(`${service(name)}: ${tasks.length} tasks running after ${CONVERGE_TIMEOUT_MS / 1000} s, wanted ${count}`);
      }
      await delay(250);
    }
  }

  async function send({ path, accept }) {
    const started = Date.now();
    try {
      const response = await fetch(`${base}${path}`, {
        headers: accept ? { accept } : {},
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return {
        path,
        started,
        ms: Date.now() - started,
        ok: response.status === 200,
        status: response.status,
        replica: response.headers.get('x-replica')?.split(',').at(-1)?.trim(),
      };
    } catch (error) {
      return { path, started, ms: Date.now() - started, ok: false, status: `${error?.cause?.code ?? error?.name}` };
    }
  }

  const results = [];
  let current = 'warm-up';
  let stopLoad = false;
  async function steadyLoad(urls) {
    const pending = new Set();
    let next = Date.now();
    for (let index = 0; !stopLoad; index += 1) {
      const step = current;
      const request = send(urls[index % urls.length]).then((result) => {
        results.push({ ...result, step });
        pending.delete(request);
      });
      pending.add(request);
      next += 1000 / ratePerSecond;
      await delay(Math.max(0, next - Date.now()));
    }
    await Promise.all(pending);
  }

  /** Which replicas answered /healthz since `from`, and how often. */
  function answeredSince(from) {
    const counts = new Map();
    for (const result of results) {
      if (result.started >= from && result.replica) counts.set(result.replica, (counts.get(result.replica) ?? 0) + 1);
    }
    return counts;
  }

  /** The first request each of `addresses` answered at or after `from`, in ms after `from`; waits for all of them. */
  async function firstServed(addresses, from) {
    const first = new Map();
    const deadline = Date.now() + CONVERGE_TIMEOUT_MS;
    while (first.size < addresses.length && Date.now() < deadline) {
      for (const result of results) {
        if (result.started >= from && addresses.includes(result.replica) && !first.has(result.replica)) {
          first.set(result.replica, result.started - from);
        }
      }
      await delay(200);
    }
    return addresses.map((address) => first.get(address));
  }

  const entryNginx = async () =>
    (await runningTasks('nginx'))
      .filter(({ node }) => entryNode === undefined || node === entryNode)
      .map(({ id }) => id)
      .join(' ');

  const categories = await fetch(`${base}/api/products/categories`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then((r) =>
    r.json(),
  );
  const urls = mix(categories);
  // Warm every key twice (nginx's cache, each replica's memory and Redis), and prove each answers before the load.
  for (const url of [...urls, ...urls]) {
    const result = await send(url);
    if (!result.ok) throw new Error(`warming ${url.path}: ${result.status}`);
  }
  say(`warmed ${urls.length} URLs (${categories.length} categories); load: ${ratePerSecond} requests/s through nginx at ${base}`);
  const load = steadyLoad(urls);
  const nginxTask = await entryNginx();
  if (nginxTask === '') throw new Error('no nginx task runs on the node the load goes through');

  const report = [];
  let failedChecks = 0;

  /**
   * Runs one step: its action (which returns the app tasks it converged on and a note), then holds the load and
   * checks the spread. An action that throws ends the run (finish() reports what was measured so far).
   */
  async function step(title, action) {
    current = title;
    const started = Date.now();
    say(`step: ${title}`);
    const { tasks, note } = await action();
    await delay(SETTLE_MS);
    const holdFrom = Date.now();
    await delay(HOLD_MS);
    const answered = answeredSince(holdFrom);
    const running = new Set(tasks.map(({ address }) => address));
    const missing = [...running].filter((address) => !answered.has(address));
    const strangers = [...answered.keys()].filter((address) => !running.has(address));
    const mine = results.filter((result) => result.step === title);
    const failed = mine.filter((result) => !result.ok);
    const spreadOk = missing.length === 0 && strangers.length === 0;
    const nginxNow = await entryNginx();
    const nginxKept = nginxNow === nginxTask;
    if (failed.length > 0 || !spreadOk || !nginxKept) failedChecks += 1;
    report.push({
      title,
      seconds: ((Date.now() - started) / 1000).toFixed(1),
      requests: mine.length,
      failed: failed.length,
      slowestMs: Math.max(0, ...mine.map(({ ms }) => ms)),
      spread:
        `${answered.size}/${running.size} replicas answered (${[...answered.values()].join('/')})` +
        `${spreadOk ? '' : ` MISSING ${missing.join(' ')} UNEXPECTED ${strangers.join(' ')}`}` +
        `; nginx ${nginxKept ? 'the same task, never restarted' : `REPLACED (now ${nginxNow || 'none'})`}`,
      note,
    });
    for (const failure of failed.slice(0, 5)) say(`  failed: ${failure.path} -> ${failure.status} after ${failure.ms} ms`);
    const slowest = [...mine].sort((a, b) => b.ms - a.ms).slice(0, 3);
    say(`  slowest: ${slowest.map(({ path, ms, status }) => `${path} ${status} ${ms} ms`).join('; ')}`);
  }

  /** A check of the run's own (not a step's): counted as a failure when `ok` is false. */
  function check(ok, message) {
    if (!ok) failedChecks += 1;
    say(`${ok ? 'ok' : 'FAILED'}: ${message}`);
  }

  /** Stops the load, prints the per-step report, and returns the exit status (1 if any check failed). */
  async function finish(error) {
    if (error !== undefined) {
      say(`stopped at step "${current}": ${error.message}`);
      failedChecks += 1;
    }
    stopLoad = true;
    await load;
    console.log(`\n== ${prefix}: per step (load: ~${ratePerSecond} requests/s through nginx, warmed URLs)`);
    for (const row of report) {
      console.log(
        `  ${row.title.padEnd(24)} ${row.seconds.padStart(5)} s  ${String(row.requests).padStart(5)} requests  ${row.failed} failed  slowest ${row.slowestMs} ms  ${row.spread}`,
      );
      console.log(`  ${''.padEnd(24)} ${row.note}`);
    }
    console.log(`  total failed requests: ${results.filter((result) => !result.ok).length} of ${results.length}`);
    return failedChecks === 0 ? 0 : 1;
  }

  return { service, say, runningTasks, converged, firstServed, step, check, finish, results };
}
