// Prints how nginx finds the app's replicas (docs/scaling.md), for nginx.conf's catalogue-replicas.conf: run when
// the container starts, and by the tests and the bench with their own values.
//
//   APP_REPLICAS_ADDRESS=app:3000 node replicas.mjs >/etc/nginx/catalogue-replicas.conf
//
// APP_REPLICAS_ADDRESS: `host:port` of the replicas, a DNS name that resolves to every one of them (default `app:3000`:
// the Compose service, or the Swarm service with `endpoint_mode: dnsrr`; on Kubernetes a headless Service's full
// name, since nginx's resolver uses no search domains), an IP address, or the name of an `upstream` block.
// NGINX_RESOLVER: the DNS servers nginx asks, space-separated; default: the nameservers of /etc/resolv.conf, which
// are Docker's own (127.0.0.11) in a Compose or Swarm network and the cluster's DNS on Kubernetes.
import { readFileSync } from 'node:fs';

// How long nginx trusts an answer: a new replica is sent requests within this, a removed one is asked no more.
const VALID_SECONDS = 1;

function refuse(message) {
  console.error(message);
  process.exit(1);
}

// Names these settings had before (docs/scaling.md, "Settings"): refused rather than ignored, so a deployment written
// for them fails at start-up, saying what to set, instead of running with a default it did not ask for. The Swarm
// stack hands nginx its APP_REPLICAS_COUNT for this check, as nginx is the one of its services that checks settings.
const RENAMED = {
  APP_REPLICAS: 'APP_REPLICAS_ADDRESS (the host:port that resolves to every replica)',
  APP_REPLICAS_COUNT: 'APP_REPLICA_COUNT (how many app replicas the Swarm stack runs)',
};
for (const [old, now] of Object.entries(RENAMED)) {
  if ((process.env[old] ?? '').trim() !== '') refuse(`${old} is no longer read: set ${now} instead`);
}

const replicas = (process.env.APP_REPLICAS_ADDRESS ?? '').trim() || 'app:3000';
// Only what a host name (or IPv4 address) and port can hold reaches nginx's configuration: no quote, space or `;`.
if (!/^[A-Za-z0-9_.-]+(:[0-9]{1,5})?$/.test(replicas)) {
  refuse(`APP_REPLICAS_ADDRESS: ${JSON.stringify(replicas)} is not host:port such as app:3000`);
}

function resolvConfNameservers() {
  try {
    return readFileSync('/etc/resolv.conf', 'utf8')
      .split('\n')
      .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
      .filter((address) => address !== undefined);
  } catch {
    return [];
  }
}

const given = (process.env.NGINX_RESOLVER ?? '').trim();
const servers = given === '' ? resolvConfNameservers() : given.split(/\s+/);
if (servers.length === 0) refuse('NGINX_RESOLVER is unset and /etc/resolv.conf names no nameserver');
const resolver = servers.map((server) => {
  if (!/^[A-Za-z0-9_.:[\]-]+$/.test(server)) refuse(`NGINX_RESOLVER: ${JSON.stringify(server)} is not a DNS server address`);
  // nginx writes an IPv6 address in brackets (a port may follow).
  return server.includes(':') && !server.startsWith('[') && server.split(':').length > 2 ? `[${server}]` : server;
});

process.stdout.write(
  `resolver ${resolver.join(' ')} valid=${VALID_SECONDS}s ipv6=off;\n` +
    `resolver_timeout 2s;\n` +
    `map "" $catalogue_replicas {\n    default "${replicas}";\n}\n`,
);
