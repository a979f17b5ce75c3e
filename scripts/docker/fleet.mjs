// The fleet test's steps, on a one-node swarm that scripts/docker/fleet.sh has set up (docs/scaling.md, "The fleet
// test: a Swarm under load"):
//   node scripts/docker/fleet.mjs <stack name> <nginx port> <image tag for the rolling update>
//
// Steady load through nginx (about 50 requests/s over API, page and photo URLs, all warmed first, and the
// uncached /healthz, whose X-Replica header says which replica answered) while, one after the other:
//   1. one app task is killed,  2. the app is scaled 3 → 5, then 5 → 2,  3. a rolling update to a new image tag,
//   4. Redis is restarted,  5. the upstream goes away.
// After each step, once the swarm has converged, the load keeps going for a while and every replica then running
// must have answered some of it, and no other, and nginx must still be the task it was (never restarted). Prints,
// per step, the requests, the failed ones (target 0), the replicas that answered, and for the scale-up the time
// until nginx sent requests to each new replica (target 10 s). Exits 1 when a request failed, a replica was not
// reached or nginx was replaced; timings are printed, never judged.
import { execFile } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';

const [stack, port, updateImage] = process.argv.slice(2);
if (!stack || !/^[0-9]+$/.test(port ?? '') || !updateImage) {
  console.error('usage: node scripts/docker/fleet.mjs <stack name> <nginx port> <image tag for the rolling update>');
  process.exit(2);
}
const base = `http://127.0.0.1:${port}`;
const RATE_PER_SECOND = 50;
// A request that takes longer than this counts as failed (a killed replica costs nginx a 2 s connect timeout).
const REQUEST_TIMEOUT_MS = 20_000;
// How long the load runs over each converged state before the spread is judged.
const HOLD_MS = 10_000;
// How long after converging nginx may still use an address it resolved before (its resolver's valid=1s, plus margin).
const SETTLE_MS = 2_000;
const CONVERGE_TIMEOUT_MS = 120_000;
const SCALE_UP_TARGET_MS = 10_000;

const run = promisify(execFile);
async function docker(...args) {
  const { stdout } = await run('docker', args, { timeout: 120_000 });
  return stdout.trim();
}
const service = (name) => `${stack}_${name}`;
const log = (message) => console.log(`[fleet ${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * The tasks of a service whose containers run now, with their address on the stack's network and image: those the
 * swarm wants running and those it is still stopping (a scale-down's, a rolling update's old ones), which nginx
 * may still reach.
 */
async function runningTasks(name) {
  const ids = (await docker('service', 'ps', service(name), '-q')).split('\n').filter(Boolean);
  if (ids.length === 0) return [];
  const format =
    '{{.ID}} {{.Status.State}} {{.Status.Timestamp.UnixMilli}} {{.Spec.ContainerSpec.Image}} {{range .NetworksAttachments}}{{range .Addresses}}{{.}} {{end}}{{end}}';
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
    .filter(([, state]) => state === 'running')
    .map(([id, , since, image, address]) => ({ id, image, runningSince: Number(since), address: `${address.split('/')[0]}:3000` }));
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

// ---- the load ------------------------------------------------------------------------------------------------------
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
    next += 1000 / RATE_PER_SECOND;
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

// ---- the steps -----------------------------------------------------------------------------------------------------
const report = [];
let failedChecks = 0;

/** Runs one step: its action, waits for the swarm to converge, holds the load, then checks the spread. */
async function step(title, action) {
  current = title;
  const started = Date.now();
  log(`step: ${title}`);
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
  // The same nginx throughout: a replaced one would have lost its cache and its clients' connections.
  const nginxNow = (await runningTasks('nginx')).map(({ id }) => id).join(' ');
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
  for (const failure of failed.slice(0, 5)) log(`  failed: ${failure.path} -> ${failure.status} after ${failure.ms} ms`);
  const slowest = [...mine].sort((a, b) => b.ms - a.ms).slice(0, 3);
  log(`  slowest: ${slowest.map(({ path, ms, status }) => `${path} ${status} ${ms} ms`).join('; ')}`);
}

async function appTaskContainer(taskId) {
  return docker('ps', '-q', '--filter', `label=com.docker.swarm.task.id=${taskId}`);
}

const categories = await fetch(`${base}/api/products/categories`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then((r) =>
  r.json(),
);
const urls = mix(categories);
// Warm every key twice (nginx's cache, each replica's memory and Redis), and prove each answers before the load.
for (const url of [...urls, ...urls]) {
  const result = await send(url);
  if (!result.ok) throw new Error(`warming ${url.path}: ${result.status}`);
}
log(`warmed ${urls.length} URLs (${categories.length} categories); load: ${RATE_PER_SECOND} requests/s through nginx`);
const load = steadyLoad(urls);
const initial = await converged('app', 3);
const nginxTask = (await converged('nginx', 1))[0].id;

// A step that cannot finish (the swarm never converges, a command fails) ends the run with what was measured so far.
try {
  await step('1 kill one app task', async () => {
    const victim = initial[0];
    await docker('kill', await appTaskContainer(victim.id));
    const tasks = await converged('app', 3, ({ id }) => id !== victim.id);
    return { tasks, note: `killed ${victim.address}; replaced` };
  });

  await step('2a scale app 3 -> 5', async () => {
    const before = new Set((await runningTasks('app')).map(({ address }) => address));
    const commanded = Date.now();
    await docker('service', 'scale', '-d', `${service('app')}=5`);
    const tasks = await converged('app', 5);
    const fresh = tasks.filter(({ address }) => !before.has(address)).map(({ address }) => address);
    // The first request each new replica answered, through nginx, counted from the scale command.
    const firstServed = new Map();
    const deadline = Date.now() + CONVERGE_TIMEOUT_MS;
    while (firstServed.size < fresh.length && Date.now() < deadline) {
      for (const result of results) {
        if (result.started >= commanded && fresh.includes(result.replica) && !firstServed.has(result.replica)) {
          firstServed.set(result.replica, result.started - commanded);
        }
      }
      await delay(200);
    }
    const seconds = (ms) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);
    const times = fresh.map((address) => firstServed.get(address));
    const slowest = Math.max(...times.map((ms) => ms ?? Infinity));
    // The swarm's part of that (the task started, passed its health check, and was added to the DNS) and nginx's.
    const running = tasks.filter(({ address }) => fresh.includes(address)).map(({ runningSince }) => runningSince - commanded);
    return {
      tasks,
      note:
        `new replicas served ${times.map(seconds).join(', ')} after the scale command (target ${SCALE_UP_TARGET_MS / 1000} s: ` +
        `${slowest <= SCALE_UP_TARGET_MS ? 'PASS' : 'MISS'}); their tasks were running (healthy) after ${running.map(seconds).join(', ')}`,
    };
  });

  await step('2b scale app 5 -> 2', async () => {
    await docker('service', 'scale', '-d', `${service('app')}=2`);
    return { tasks: await converged('app', 2), note: 'three tasks stopped (SIGTERM, drained)' };
  });

  await step('3 rolling update', async () => {
    await docker('service', 'update', '-d', '--image', updateImage, service('app'));
    // The update's own verdict: completed, or rolled back or paused when a new task failed.
    const ended = ['completed', 'paused', 'rollback_completed', 'rollback_paused'];
    const started = Date.now();
    let state = '';
    while (!ended.includes(state) && Date.now() - started < CONVERGE_TIMEOUT_MS) {
      await delay(500);
      state = await docker('service', 'inspect', '--format', '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}', service('app'));
    }
    if (state !== 'completed') throw new Error(`the rolling update ended "${state}"`);
    return {
      tasks: await converged('app', 2, ({ image }) => image === updateImage),
      note: `every task on ${updateImage}, update ${state}`,
    };
  });

  await step('4 restart Redis', async () => {
    const [before] = await runningTasks('redis');
    await docker('service', 'update', '-d', '--force', service('redis'));
    await converged('redis', 1, ({ id }) => id !== before?.id);
    return { tasks: await converged('app', 2), note: 'new Redis task on the same volume' };
  });

  await step('5 upstream down', async () => {
    await docker('service', 'scale', '-d', `${service('upstream')}=0`);
    await converged('upstream', 0);
    return { tasks: await converged('app', 2), note: 'upstream scaled to 0; warmed keys only' };
  });
} catch (error) {
  log(`stopped at step "${current}": ${error.message}`);
  failedChecks += 1;
}

stopLoad = true;
await load;

console.log('\n== fleet test: per step (load: ~50 requests/s through nginx, warmed URLs)');
for (const row of report) {
  console.log(
    `  ${row.title.padEnd(22)} ${row.seconds.padStart(5)} s  ${String(row.requests).padStart(5)} requests  ${row.failed} failed  slowest ${row.slowestMs} ms  ${row.spread}`,
  );
  console.log(`  ${''.padEnd(22)} ${row.note}`);
}
console.log(`  total failed requests: ${results.filter((result) => !result.ok).length} of ${results.length}`);
process.exit(failedChecks === 0 ? 0 : 1);
