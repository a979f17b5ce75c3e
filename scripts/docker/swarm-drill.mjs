// The three-node drill's steps, on the swarm scripts/docker/swarm-drill.sh has set up (docs/scaling.md, "The
// three-node drill"):
//   DOCKER_HOST=tcp://<manager>:2375 DRILL_NODES='<json>' node scripts/docker/swarm-drill.mjs <stack> <nginx URL>
//
// DRILL_NODES: {"manager": {"engine": "tcp://…:2375", "container": "…", "url": "http://…:3000"}, "worker1": …}, the
// node named by DRILL_REDIS_NODE holding Redis (the stack's catalogue.redis label), the other worker the one the
// drill kills. Under steady load through the manager's nginx (scripts/docker/swarm-run.mjs), one after the other:
//   1. the other worker's container is killed (SIGKILL: the machine gone),
//   2. Redis's node is drained, then made active again,
//   3. the killed node comes back,
//   4. the app is spread over the nodes again (`docker service update --force`: more than one node, none with all).
// Before and after, a key written to Redis must be there, with its value. Prints per step the requests, the failed
// ones (target 0) and the time until every replica runs again; exits 1 when a request failed, a replica was not
// reached, the manager's nginx was replaced or the key was lost.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { CONVERGE_TIMEOUT_MS, docker, seconds, startRun } from './swarm-run.mjs';

const [stack, base] = process.argv.slice(2);
const nodes = JSON.parse(process.env.DRILL_NODES ?? '{}');
const redisNode = process.env.DRILL_REDIS_NODE ?? '';
const killedNode = Object.keys(nodes).find((name) => name !== 'manager' && name !== redisNode);
if (!stack || !base || !nodes.manager || !nodes[redisNode] || !killedNode) {
  console.error('usage: DOCKER_HOST=… DRILL_NODES=… DRILL_REDIS_NODE=… node scripts/docker/swarm-drill.mjs <stack> <nginx URL>');
  process.exit(2);
}
const APP_REPLICAS = 3;

const run = promisify(execFile);
/** A docker command on another engine than DOCKER_HOST's: a node's own (`tcp://…`), or this machine's (''). */
async function dockerOn(engine, ...args) {
  const env = { ...process.env, DOCKER_HOST: engine };
  if (engine === '') delete env.DOCKER_HOST;
  const { stdout } = await run('docker', args, { timeout: 120_000, env });
  return stdout.trim();
}

const nodeIds = Object.fromEntries(
  (await docker('node', 'ls', '--format', '{{.Hostname}} {{.ID}}')).split('\n').map((line) => line.split(' ')),
);
const fleet = await startRun({ prefix: 'drill', stack, base, ratePerSecond: 50, entryNode: nodeIds.manager });
const { service, say, converged, firstServed, step, check } = fleet;

/** Waits until `ready()` holds, polling; returns ms since `from`. */
async function until(what, ready, from = Date.now()) {
  while (!(await ready())) {
    if (Date.now() - from > CONVERGE_TIMEOUT_MS) throw new Error(`${what}: not within ${CONVERGE_TIMEOUT_MS / 1000} s`);
    await delay(250);
  }
  return Date.now() - from;
}
const nodeStatus = async (name) => docker('node', 'inspect', '--format', '{{.Status.State}} {{.Spec.Availability}}', name);

/** A command in the Redis task's container, on Redis's node. */
async function inRedis(...command) {
  const engine = nodes[redisNode].engine;
  const container = await dockerOn(engine, 'ps', '-q', '--filter', `label=com.docker.swarm.service.name=${service('redis')}`);
  if (container === '') throw new Error(`no Redis container runs on ${redisNode}`);
  return dockerOn(engine, 'exec', container, ...command);
}
/** A redis-cli command, authenticated as the container's health check is (the password in no command line). */
const redisCli = (...args) =>
  inRedis('bash', '-c', 'source /etc/redis/password.sh && REDISCLI_AUTH=$(redis_password) redis-cli "$@"', 'redis-cli', ...args);
const MARKER = 'catalogue-drill:marker';
const marker = randomBytes(12).toString('hex');
async function markerKept(when) {
  const [value, keys] = [await redisCli('GET', MARKER), await redisCli('DBSIZE')];
  check(value === marker, `the key written before the drill is in Redis ${when} (${keys} keys)`);
}

/** The app's tasks, once APP_REPLICAS run and `accept` likes each (and answer through nginx), with the time it took. */
async function appBack(from, accept) {
  const tasks = await converged('app', APP_REPLICAS, accept);
  const ms = Date.now() - from;
  const fresh = tasks.filter(({ runningSince }) => runningSince >= from).map(({ address }) => address);
  const served = await firstServed(fresh, from);
  return { tasks, ms, served };
}
const onNodes = (tasks) =>
  Object.entries(nodeIds)
    .map(([name, id]) => `${name} ${tasks.filter(({ node }) => node === id).length}`)
    .join(', ');

const [redisTask] = await converged('redis', 1);
check(redisTask.node === nodeIds[redisNode], `Redis runs on ${redisNode}, the node labelled catalogue.redis=true`);
const anonymous = await inRedis('redis-cli', 'PING');
check(anonymous.startsWith('NOAUTH'), `Redis refuses a client without the password (${anonymous})`);
await redisCli('SET', MARKER, marker);
await markerKept('before the drill');
const initial = await converged('app', APP_REPLICAS);
say(`app replicas: ${onNodes(initial)}`);

try {
  await step(`1 kill ${killedNode}`, async () => {
    const killed = Date.now();
    await dockerOn('', 'kill', nodes[killedNode].container);
    const back = await appBack(killed, ({ node }) => node !== nodeIds[killedNode]);
    const down = await until(`${killedNode} down`, async () => (await nodeStatus(killedNode)).startsWith('down'), killed);
    await markerKept(`after ${killedNode} was killed`);
    return {
      tasks: back.tasks,
      note:
        `${killedNode}'s container killed (SIGKILL); marked down after ${seconds(down)}; ${APP_REPLICAS} replicas running again ` +
        `after ${seconds(back.ms)} (${onNodes(back.tasks)}); the replacements served after ${back.served.map(seconds).join(', ') || '(none needed)'}`,
    };
  });

  await step(`2a drain ${redisNode}`, async () => {
    const drained = Date.now();
    await docker('node', 'update', '--availability', 'drain', redisNode);
    const back = await appBack(drained, ({ node }) => node === nodeIds.manager);
    await converged('redis', 0);
    return {
      tasks: back.tasks,
      note:
        `${APP_REPLICAS} replicas running again after ${seconds(back.ms)} (${onNodes(back.tasks)}); the moved ones served after ` +
        `${back.served.map(seconds).join(', ') || '(none needed)'}; Redis stopped, waiting for its node`,
    };
  });

  await step(`2b ${redisNode} active again`, async () => {
    const activated = Date.now();
    await docker('node', 'update', '--availability', 'active', redisNode);
    await converged('redis', 1, ({ node }) => node === nodeIds[redisNode]);
    const redisMs = Date.now() - activated;
    await until('Redis answering', async () => (await redisCli('PING').catch(() => '')) === 'PONG', activated);
    await markerKept(`after ${redisNode} was drained and made active`);
    return {
      tasks: await converged('app', APP_REPLICAS),
      note: `Redis running again on ${redisNode}, its volume, after ${seconds(redisMs)}`,
    };
  });

  await step(`3 ${killedNode} back`, async () => {
    const started = Date.now();
    await dockerOn('', 'start', nodes[killedNode].container);
    const ready = await until(
      `${killedNode} ready`,
      async () => (await nodeStatus(killedNode).catch(() => '')).startsWith('ready'),
      started,
    );
    const answering = await until(
      `${killedNode}'s nginx answering`,
      async () =>
        (await fetch(`${nodes[killedNode].url}/nginx-health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.ok === true,
      started,
    );
    const tasks = await converged('app', APP_REPLICAS);
    await markerKept(`after ${killedNode} came back`);
    return {
      tasks,
      note: `${killedNode} ready after ${seconds(ready)}, its nginx answering /nginx-health after ${seconds(answering)}; app replicas not moved back: ${onNodes(tasks)}`,
    };
  });

  await step('4 spread again', async () => {
    const started = Date.now();
    await docker('service', 'update', '-d', '--force', service('app'));
    await until('the forced update completed', async () => {
      const state = await docker('service', 'inspect', '--format', '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}', service('app'));
      if (state.startsWith('rollback') || state === 'paused') throw new Error(`the forced update ended "${state}"`);
      return state === 'completed';
    });
    const tasks = await converged('app', APP_REPLICAS, ({ runningSince }) => runningSince >= started);
    // Swarm places each new task where the service has the fewest, counting the old ones a start-first update has
    // not stopped yet: spread again, though not always one per node.
    const perNode = Object.values(nodeIds).map((id) => tasks.filter(({ node }) => node === id).length);
    check(
      perNode.filter((count) => count > 0).length >= 2 && Math.max(...perNode) < APP_REPLICAS,
      `docker service update --force spread the replicas over more than one node: ${onNodes(tasks)}`,
    );
    return { tasks, note: `rolling (start-first) over ${seconds(Date.now() - started)}: ${onNodes(tasks)}` };
  });
  await markerKept('at the end');
  // The replicas reach Redis with the password their secret holds: the replicas started in the drill filled their
  // caches with Redis up and stored copies there. (Not checked right after the warm-up: the first replicas may fill
  // before their first connection to Redis is made, and then serve from memory until the next fill.)
  const copies = Number(await redisCli('DBSIZE')) - 1;
  check(copies > 0, `the replicas stored copies in Redis with the secret's password (${copies} besides the drill's key)`);
  process.exit(await fleet.finish());
} catch (error) {
  process.exit(await fleet.finish(error));
}
