// nginx (deploy/nginx/nginx.conf) finds the replicas through DNS and follows the name as replicas come and go,
// without a restart (docs/scaling.md, "How nginx finds the replicas"). On the host there is no Docker DNS, so the
// name is answered by a DNS double, and the replicas are sites on 127.0.0.2–4 (all of 127/8 is loopback on Linux),
// one port, as containers on a network are one name and port with several addresses.
import { request } from 'node:http';
import { startDnsDouble, type DnsDouble } from '@catalogue/testing/dns-double';
import { freePort } from '@catalogue/testing/free-port';
import { findNginx, NGINX_INSTALL_HINT, type NginxServer, startNginxServer } from '@catalogue/testing/nginx-server';
import { startTestSite, type TestSite } from '@catalogue/server/testing/test-site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const nginxMissing = findNginx() === undefined && !process.env.CI;
if (nginxMissing) console.warn(`Skipping the DNS tests behind nginx: nginx is not installed (${NGINX_INSTALL_HINT})`);

const NAME = 'replicas.catalogue.test';
const ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
/** How long nginx may take to follow a DNS change: its `valid=1s`, with room for a busy machine. Bounds a hang only. */
const FOLLOW_LIMIT_MS = 15_000;

let dns: DnsDouble;
let nginx: NginxServer;
let port: number;
const sites = new Map<string, TestSite>();

beforeAll(async () => {
  if (nginxMissing) return;
  dns = await startDnsDouble();
  dns.set(NAME, ADDRESSES.slice(0, 2));
  port = await freePort();
  for (const host of ADDRESSES) {
    sites.set(host, await startTestSite({ config: { HOST: host, PORT: String(port), TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '0' } }));
  }
  nginx = await startNginxServer({ replicas: { name: `${NAME}:${port}`, resolver: dns.address } });
});

afterAll(async () => {
  await nginx?.stop();
  for (const site of sites.values()) await site.close();
  await dns?.close();
});

/** GET /healthz through nginx (never cached): its status and the replica that answered (its address, no port). */
function healthz(): Promise<{ status: number; replica: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${nginx.url}/healthz`, { agent: false, timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => {
        const header = response.headers['x-replica'];
        // The addresses nginx tried, the one that answered last: `127.0.0.3:41234, 127.0.0.4:41234`.
        const answered = typeof header === 'string' ? header.split(',').at(-1)!.trim() : undefined;
        resolve({ status: response.statusCode!, replica: answered?.split(':')[0] });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The replicas that answered `count` requests in a row, every one of which must be a 200. */
async function spread(count: number): Promise<string[]> {
  const seen = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const { status, replica } = await healthz();
    expect(status).toBe(200);
    if (replica !== undefined) seen.add(replica);
  }
  return [...seen].sort();
}

/** Sends requests until `done(replica)` says so, every one of which must be a 200; bounded, to catch a hang. */
async function until(done: (replica: string | undefined) => boolean): Promise<void> {
  const deadline = Date.now() + FOLLOW_LIMIT_MS;
  for (;;) {
    const { status, replica } = await healthz();
    expect(status).toBe(200);
    if (done(replica)) return;
    if (Date.now() > deadline) throw new Error(`nginx did not follow the DNS change within ${FOLLOW_LIMIT_MS} ms`);
  }
}

describe.skipIf(nginxMissing)('nginx following the replicas through DNS', () => {
  it('spreads requests over every address the name has', async () => {
    expect(await spread(40)).toEqual(ADDRESSES.slice(0, 2));
    expect(dns.queries()).toBeGreaterThan(0);
  });

  it('sends requests to a replica DNS adds, and none to one it removes, with the same nginx process and no failed request', async () => {
    const { pid } = nginx;
    dns.set(NAME, ADDRESSES);
    await until((replica) => replica === ADDRESSES[2]);
    expect(await spread(60)).toEqual(ADDRESSES);

    dns.set(NAME, ADDRESSES.slice(1));
    // Once an answer without the removed address is in use, nginx asks only the remaining two.
    let inARow = 0;
    await until((replica) => (inARow = replica === ADDRESSES[0] ? 0 : inARow + 1) >= 40);
    expect(await spread(40)).toEqual(ADDRESSES.slice(1));
    expect(nginx.pid).toBe(pid);
  });

  it('leaves a replica that stopped for the next address, failing no request', async () => {
    // Still in DNS, no longer listening: each request that picks it is retried on another address.
    await sites.get(ADDRESSES[1]!)!.close();
    sites.delete(ADDRESSES[1]!);
    expect(await spread(40)).toEqual([ADDRESSES[2]]);
  });
});
