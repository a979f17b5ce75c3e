// The scale figures (docs/scaling.md, "Figures"), on loopback processes rather than containers:
//   node scripts/bench/scale.mjs            (after `npm run build`; needs Debian's redis-server and nginx)
//
// 1. Upstream list calls per TTL: three replicas of the built server (harness.mjs, as the bench starts it) sharing one
//    redis-server, all hit cold and at the same moment, then again each time the TTL runs out. Counted from the
//    replicas' own /metrics (catalogue_upstream_call_duration_seconds_count{operation="list"}). Target: 1 per TTL.
// 2. Through nginx with deploy/nginx/nginx.conf, adapted as the tests adapt it: a cached `GET /api/products`
//    (gzip, 1,000 products) against the same nginx serving a static file of the same bytes, wrk (harness.mjs) with 50
//    keep-alive connections in its own process, alternating in rotating order; the median of the rounds' ratios
//    is reported. Target: ≥ 0.8×.
// redis-server and nginx are started by the tests' own helpers (testing/src/redis-server.ts, nginx-server.ts; Node
// loads their built `dist`, hence the build first). BENCH_SECONDS (default 6) and BENCH_ROUNDS (default 3) shorten
// it, BENCH_PRODUCTS (default 1000) sizes the catalogue. Prints its figures; never fails on them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNginx, startNginxServer } from '@catalogue/testing/nginx-server';
import { findRedisServer, startRedisServer } from '@catalogue/testing/redis-server';
import {
  alsoOnExit,
  CONNECTIONS,
  cpuSeconds,
  envNumber,
  freePort,
  get,
  killChildrenOnExit,
  contest,
  median,
  startBuiltServer,
  sleep,
  startUpstream,
  stopAllProcesses,
} from './harness.mjs';

const SECONDS = envNumber('BENCH_SECONDS', 6);
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const PRODUCTS = envNumber('BENCH_PRODUCTS', 1000);
const REPLICAS = 3;
const COLD_TTL_SECONDS = 2;

if (!findNginx() || !findRedisServer()) {
  console.error("The scale bench needs Debian's nginx and redis-server: apt-get install -y nginx redis-server");
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'catalogue-scale-bench-'));
killChildrenOnExit();
process.once('exit', () => rmSync(work, { recursive: true, force: true }));

/** The replicas as the image runs them (its memory settings included), unpinned: nginx and wrk share the cores. */
async function startReplicas({ upstreamUrl, redisUrl, ttlSeconds }) {
  return Promise.all(
    Array.from({ length: REPLICAS }, async () => {
      const replica = await startBuiltServer({
        productsApiUrl: upstreamUrl,
        pinned: false,
        env: {
          REDIS_URL: redisUrl,
          CACHE_TTL_SECONDS: String(ttlSeconds),
          TRUST_PROXY: 'true',
          RATE_LIMIT_PER_MINUTE: '0',
          LOG_LEVEL: 'warn',
        },
      });
      return { ...replica, port: Number(new URL(replica.origin).port) };
    }),
  );
}

async function upstreamListCalls(replicas) {
  let total = 0;
  for (const { origin } of replicas) {
    const text = (await get(`${origin}/metrics`)).body.toString('utf8');
    for (const line of text.split('\n')) {
      if (line.startsWith('catalogue_upstream_call_duration_seconds_count{') && line.includes('operation="list"')) {
        total += Number(line.slice(line.lastIndexOf(' ') + 1));
      }
    }
  }
  return total;
}

/** Every replica asked for the list by `perReplica` requests at once; resolves with the statuses. */
async function stampede(replicas, perReplica) {
  const requests = replicas.flatMap(({ origin }) => Array.from({ length: perReplica }, () => get(`${origin}/api/products`)));
  return (await Promise.all(requests)).map((response) => response.status);
}

const upstream = await startUpstream(PRODUCTS);
let redis;
let nginx;
try {
  // ---- 1. upstream list calls per TTL --------------------------------------------------------------------------
  redis = await startRedisServer();
  // Not a child of the harness's: on Ctrl-C, the exit handler sends its signal (kill() and stop() send it at once).
  alsoOnExit(() => void redis.kill());
  const redisUrl = redis.url;
  const replicas = await startReplicas({ upstreamUrl: upstream.url, redisUrl, ttlSeconds: COLD_TTL_SECONDS });
  const perTtl = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round > 0) await sleep((COLD_TTL_SECONDS + 0.5) * 1000);
    const before = await upstreamListCalls(replicas);
    const statuses = await stampede(replicas, 20);
    // A stale answer refreshes in the background: let those refreshes finish before counting.
    await sleep(500);
    perTtl.push({
      calls: (await upstreamListCalls(replicas)) - before,
      ok: statuses.filter((status) => status === 200).length,
      of: statuses.length,
    });
  }
  for (const { child } of replicas) child.kill('SIGTERM');

  // ---- 2. nginx: cached answer vs static file ------------------------------------------------------------------
  const cachedReplicas = await startReplicas({ upstreamUrl: upstream.url, redisUrl, ttlSeconds: 3600 });
  const staticPort = await freePort();
  // The static contender: the same nginx, the same bytes and content headers, from a file.
  nginx = await startNginxServer({
    replicas: { ports: cachedReplicas.map(({ port }) => port) },
    extraHttpConfig:
      `    server {\n        listen 127.0.0.1:${staticPort};\n        location = /api/products {\n            root ${work}/static;\n` +
      `            default_type application/json;\n            add_header Content-Encoding gzip;\n            add_header Vary Accept-Encoding;\n        }\n    }\n`,
  });
  alsoOnExit(() => void nginx.stop());

  const headers = { 'accept-encoding': 'gzip, deflate, br;q=0' };
  const proxied = `${nginx.url}/api/products`;
  const fill = await get(proxied, headers);
  const hit = await get(proxied, headers);
  mkdirSync(join(work, 'static/api'), { recursive: true });
  writeFileSync(join(work, 'static/api/products'), hit.body);
  const staticUrl = `http://127.0.0.1:${staticPort}/api/products`;
  const file = await get(staticUrl, headers);
  if (hit.headers['x-proxy-cache'] !== 'HIT' || !file.body.equals(hit.body)) {
    throw new Error(
      `setup: X-Proxy-Cache ${hit.headers['x-proxy-cache']} (fill: ${fill.headers['x-proxy-cache']}), same bytes: ${file.body.equals(hit.body)}`,
    );
  }
  // nginx's workers' CPU time per answer: unlike requests per second, it barely moves when other work shares the
  // machine, so it tells the two contenders apart even on a busy one.
  const workers = spawnSync('pgrep', ['-P', String(nginx.pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  const cpu = () => workers.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? NaN), 0);
  const [viaNginx, fromFile] = await contest(
    [
      { name: 'proxied', url: proxied, cpu },
      { name: 'static', url: staticUrl, cpu },
    ],
    { headers, seconds: SECONDS, rounds: ROUNDS },
  );
  if (viaNginx.failures || fromFile.failures) throw new Error(`${viaNginx.failures} and ${fromFile.failures} failed requests`);
  const after = await get(proxied, headers);
  // Each round's pair ran back to back, so its ratio is the least disturbed by other work on the machine.
  const ratios = viaNginx.runs.map((run, i) => run.requestsPerSecond / fromFile.runs[i].requestsPerSecond);

  const lines = [
    `upstream list calls per TTL, ${REPLICAS} replicas + Redis, ${REPLICAS * 20} concurrent cold requests (target 1): ` +
      perTtl.map(({ calls, ok, of }) => `${calls} (${ok}/${of} answered 200)`).join(', '),
    `through nginx, cached GET /api/products (${PRODUCTS} products, gzip, ${hit.body.length} bytes, X-Proxy-Cache ${hit.headers['x-proxy-cache']} → ${after.headers['x-proxy-cache']}) ` +
      `vs the same bytes as a static file, ${CONNECTIONS} connections, median of ${ROUNDS} × ${SECONDS} s: ` +
      `${Math.round(viaNginx.requestsPerSecond)} vs ${Math.round(fromFile.requestsPerSecond)} req/s; ratio ${median(ratios).toFixed(2)}× (median of the rounds' ratios; target ≥ 0.8×), ` +
      `by round ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}; nginx CPU per answer ` +
      `${viaNginx.cpuPerRequestUs.toFixed(1)} vs ${fromFile.cpuPerRequestUs.toFixed(1)} µs (median)`,
  ];
  console.log(lines.join('\n'));
} finally {
  await nginx?.stop();
  await redis?.stop();
  await upstream.close();
  await stopAllProcesses();
}
