#!/bin/bash
# Prints how nginx finds the app's replicas (docs/scaling.md), for nginx.conf's catalogue-replicas.conf: run when
# the container starts, and by the tests and the bench with their own values. bash, not Node: the nginx image has
# no Node runtime.
#
#   APP_REPLICAS_ADDRESS=app:3000 bash replicas.sh >/etc/nginx/catalogue-replicas.conf
#
# APP_REPLICAS_ADDRESS: `host:port` of the replicas, a DNS name that resolves to every one of them (default `app:3000`:
# the Compose service, or the Swarm service with `endpoint_mode: dnsrr`; on Kubernetes a headless Service's full
# name, since nginx's resolver uses no search domains), an IP address, or the name of an `upstream` block.
# NGINX_RESOLVER: the DNS servers nginx asks, space-separated; default: the nameservers of /etc/resolv.conf, which
# are Docker's own (127.0.0.11) in a Compose or Swarm network and the cluster's DNS on Kubernetes.
set -euo pipefail

# How long nginx trusts an answer: a new replica is sent requests within this, a removed one is asked no more.
VALID_SECONDS=1

refuse() {
  printf '%s\n' "$1" >&2
  exit 1
}
trim() {
  local value=$1
  value=${value#"${value%%[![:space:]]*}"}
  printf '%s' "${value%"${value##*[![:space:]]}"}"
}

# Names these settings had before (docs/scaling.md, "Settings"): refused rather than ignored, so a deployment written
# for them fails at start-up, saying what to set, instead of running with a default it did not ask for. The Swarm
# stack hands nginx its APP_REPLICAS_COUNT for this check, as nginx is the one of its services that checks settings.
[ -z "$(trim "${APP_REPLICAS:-}")" ] \
  || refuse 'APP_REPLICAS is no longer read: set APP_REPLICAS_ADDRESS (the host:port that resolves to every replica) instead'
[ -z "$(trim "${APP_REPLICAS_COUNT:-}")" ] \
  || refuse 'APP_REPLICAS_COUNT is no longer read: set APP_REPLICA_COUNT (how many app replicas the Swarm stack runs) instead'

replicas=$(trim "${APP_REPLICAS_ADDRESS:-}")
replicas=${replicas:-app:3000}
# Only what a host name (or IPv4 address) and port can hold reaches nginx's configuration: no quote, space or `;`.
[[ $replicas =~ ^[A-Za-z0-9_.-]+(:[0-9]{1,5})?$ ]] || refuse "APP_REPLICAS_ADDRESS: \"$replicas\" is not host:port such as app:3000"

given=$(trim "${NGINX_RESOLVER:-}")
if [ -n "$given" ]; then
  read -r -a servers <<<"$given"
else
  mapfile -t servers < <(awk '$1 == "nameserver" && $2 != "" { print $2 }' /etc/resolv.conf 2>/dev/null || true)
fi
[ ${#servers[@]} -gt 0 ] || refuse 'NGINX_RESOLVER is unset and /etc/resolv.conf names no nameserver'
# An address, with a port or in brackets (`]` first and `[` anywhere: how a bracket expression lists them).
DNS_SERVER='^[][A-Za-z0-9_.:-]+$'
resolver=()
for server in "${servers[@]}"; do
  [[ $server =~ $DNS_SERVER ]] || refuse "NGINX_RESOLVER: \"$server\" is not a DNS server address"
  # nginx writes an IPv6 address in brackets (a port may follow).
  colons=${server//[^:]/}
  if [[ $server != '['* && ${#colons} -ge 2 ]]; then server="[$server]"; fi
  resolver+=("$server")
done

printf 'resolver %s valid=%ss ipv6=off;\nresolver_timeout 2s;\nmap "" $catalogue_replicas {\n    default "%s";\n}\n' \
  "${resolver[*]}" "$VALID_SECONDS" "$replicas"
