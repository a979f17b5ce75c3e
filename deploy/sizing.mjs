// What one replica needs and carries (docs/scaling.md, "What one replica needs"): after `npm run build`,
//   node deploy/sizing.mjs                      # both parts
//   node deploy/sizing.mjs throughput           # only part 2 (memory: only part 1)
// 1. Memory: the built server (`node server/dist/index.js`, defaults) in front of the upstream double serving the
//    bench's generated catalogue (testing/src/generated-catalogue.ts) of 20, 5,000 and 50,000 products; its
//    resident set (VmRSS) once started, and after every product's API answer, page and photo (original and a
//    320 px variant) has been asked for once, with its peak (VmHWM).
// 2. Requests per second through nginx (deploy/nginx/nginx.conf, as the tests run it) with one and with three
//    replicas sharing Redis, measured with Debian's `wrk` (WRK_SETTINGS below) on a mix of URLs nginx must pass
//    to a replica (uncached: /healthz and a 404) and on the cached product list; and the replicas' CPU time per
//    answer they gave, which the load on a shared machine does not change much.
// Needs Debian's nginx, redis-server and wrk. Prints figures; judges nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginxServer } from '@catalogue/testing/nginx-server';
import { startRedisServer } from '@catalogue/testing/redis-server';
import { get, waitFor200 } from '../scripts/bench/http.mjs';
import { cpuSeconds, freePort, killChildrenOnExit, peakRssMb, startNode, stopAllProcesses } from '../scripts/bench/processes.mjs';
import { startUpstream } from '../scripts/bench/upstream.mjs';

const SIZES = [20, 5_000, 50_000];
const WRK_SETTINGS = ['-t', '2', '-c', '50', '-d', '10s'];
const PHOTO_SAMPLE = 200;
const ENTRY = new URL('../server/dist/index.js', import.meta.url).pathname;

/** The built server as `npm start` runs it, at its defaults but for the upstream, the port and `env`. */
async function startReplica(upstreamUrl, env = {}) {
  const port = await freePort();
  const child = startNode([ENTRY], {
    env: { PORT: String(port), HOST: '127.0.0.1', PRODUCTS_API_URL: upstreamUrl, RATE_LIMIT_PER_MINUTE: '0', ...env },
  });
  // Log lines are read and dropped, as a log collector would; unread, the pipe would stall the server.
  child.stdout.resume();
  const origin = `http://127.0.0.1:${port}`;
  await waitFor200(`${origin}/healthz`, { timeoutMs: 15_000, intervalMs: 20 });
  return { origin, port, child };
}

function rssMb(pid) {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}
const mb = (value) => `${value.toFixed(0)} MB`;

const parts = process.argv.slice(2);
const runs = (part) => parts.length === 0 || parts.includes(part);
killChildrenOnExit();

// ---- 1. memory --------------------------------------------------------------------------------------------------
if (runs('memory')) console.log('== memory of one replica (VmRSS; peak VmHWM), upstream double with the generated catalogue');
for (const count of runs('memory') ? SIZES : []) {
  const upstream = await startUpstream(count);
  const server = await startReplica(upstream.url);
  const pid = server.child.pid;
  const started = rssMb(pid);
  const cpuBefore = cpuSeconds(pid);
  const warmStarted = performance.now();
  await get(`${server.origin}/api/products`, { 'accept-encoding': 'gzip' });
  await get(`${server.origin}/api/products`, { 'accept-encoding': 'br' });
  await get(`${server.origin}/`, { accept: 'text/html' });
  await get(`${server.origin}/products`, { accept: 'text/html' });
  // Every product's JSON and page, and photos of the first PHOTO_SAMPLE (the image cache has its own budget,
  // IMAGE_CACHE_MAX_BYTES, 32 MiB by default, which bounds what photos add however many there are).
  for (let id = 1; id <= count; id += 1) {
    await get(`${server.origin}/api/products/${id}`, { 'accept-encoding': 'gzip' });
    if (id <= 2_000) await get(`${server.origin}/productdetails/${id}`, { accept: 'text/html', 'accept-encoding': 'gzip' });
    if (id <= PHOTO_SAMPLE) {
      await get(`${server.origin}/api/products/${id}/image`);
      await get(`${server.origin}/api/products/${id}/image?w=320`, { accept: 'image/webp' });
    }
  }
  const warmSeconds = (performance.now() - warmStarted) / 1000;
  console.log(
    `  ${String(count).padStart(6)} products: ${mb(started)} started, ${mb(rssMb(pid))} after warming ` +
      `(peak ${mb(peakRssMb(pid))}; warming took ${warmSeconds.toFixed(0)} s, ${(cpuSeconds(pid) - cpuBefore).toFixed(1)} CPU s)`,
  );
  server.child.kill('SIGTERM');
  await upstream.close();
}

// ---- 2. requests per second through nginx ----------------------------------------------------------------------
const wrkScript = join(mkdtempSync(join(tmpdir(), 'catalogue-sizing-')), 'mix.lua');
writeFileSync(
  wrkScript,
  // Alternates the uncached probe and a 404 of the app's router: both answered by a replica every time (nginx caches
  // neither), neither asks the upstream.
  `local paths = {"/healthz", "/api/no-such-route"}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % 2) + 1])\nend\n`,
);
function wrk(url, script) {
  const result = spawnSync('wrk', [...WRK_SETTINGS, ...(script ? ['-s', script] : []), '-H', 'Accept-Encoding: gzip', url], {
    encoding: 'utf8',
  });
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1];
  const requests = /(\d+) requests in/.exec(result.stdout)?.[1];
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1] ?? '0';
  return { rate: Number(rate), requests: Number(requests), errors };
}

if (!runs('throughput')) {
  await stopAllProcesses();
  process.exit(0);
}
console.log(`\n== requests/s through nginx, wrk ${WRK_SETTINGS.join(' ')}, 1,000 products, replicas share Redis`);
const upstream = await startUpstream(1_000);
const redis = await startRedisServer();
for (const replicas of [1, 3]) {
  const servers = [];
  for (let i = 0; i < replicas; i += 1) {
    servers.push(await startReplica(upstream.url, { REDIS_URL: redis.url, TRUST_PROXY: 'true' }));
  }
  const nginx = await startNginxServer({ replicas: { ports: servers.map(({ port }) => port) } });
  await get(`${nginx.url}/api/products`, { 'accept-encoding': 'gzip' });
  const replicasCpu = () => servers.reduce((sum, { child }) => sum + cpuSeconds(child.pid), 0);
  const cpuBefore = replicasCpu();
  const passed = wrk(`${nginx.url}/`, wrkScript);
  const cpuPerAnswerUs = ((replicasCpu() - cpuBefore) / passed.requests) * 1e6;
  const cached = wrk(`${nginx.url}/api/products`);
  console.log(
    `  ${replicas} replica(s): ${passed.rate.toFixed(0)} req/s passed to the replicas (/healthz and a 404 alternating; ` +
      `${passed.errors} non-2xx, the 404s; ${cpuPerAnswerUs.toFixed(0)} µs of replica CPU per answer), ` +
      `${cached.rate.toFixed(0)} req/s of the cached list (gzip, from nginx's cache)`,
  );
  await nginx.stop();
  for (const server of servers) server.child.kill('SIGTERM');
}
await redis.stop();
await upstream.close();
rmSync(join(wrkScript, '..'), { recursive: true, force: true });
await stopAllProcesses();
process.exit(0);
