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
import { setTimeout as delay } from 'node:timers/promises';
import { CONVERGE_TIMEOUT_MS, docker, seconds, startRun } from './swarm-run.mjs';

const [stack, port, updateImage] = process.argv.slice(2);
if (!stack || !/^[0-9]+$/.test(port ?? '') || !updateImage) {
  console.error('usage: node scripts/docker/fleet.mjs <stack name> <nginx port> <image tag for the rolling update>');
  process.exit(2);
}
const SCALE_UP_TARGET_MS = 10_000;

const run = await startRun({ prefix: 'fleet', stack, base: `http://127.0.0.1:${port}`, ratePerSecond: 50 });
const { service, runningTasks, converged, firstServed, step } = run;
const initial = await converged('app', 3);

async function appTaskContainer(taskId) {
  return docker('ps', '-q', '--filter', `label=com.docker.swarm.task.id=${taskId}`);
}

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
    const times = await firstServed(fresh, commanded);
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
  process.exit(await run.finish());
} catch (error) {
  process.exit(await run.finish(error));
}
