#!/usr/bin/env bash
# Fleet test on a real one-node swarm (docs/scaling.md, "The fleet test: a Swarm under load"): builds the images
# (scripts/docker/build.sh, seconds from the layer cache), makes this Docker engine a one-node swarm, deploys
# deploy/swarm/stack.yml with an upstream of the test's own (scripts/docker/fleet.stack.yml), and runs
# scripts/docker/fleet.mjs: steady load through nginx while an app task is killed, the app is scaled 3 → 5 → 2, a
# rolling update runs, Redis restarts and the upstream goes away; 0 failed requests and every replica reached after
# each step.
#
#   bash scripts/docker/fleet.sh                                   # with a Docker daemon that answers
#   bash .ci/docker/with-docker.sh bash scripts/docker/fleet.sh    # what CI runs
#
# Removes the stack, Redis's volume, its secret (Redis's password, made for this run) and the node label it added and, when this run
# made the engine a swarm, leaves the swarm again, also on failure. An engine that already is a swarm member is used
# as it is and left in it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
STACK="catalogue-fleet-$$"
UPDATE_IMAGE="${IMAGE%%:*}:fleet-update"
SECRET="${STACK}_redis_url"
joined=0
deployed=0
node_id=
labelled=0
secret_made=0

cleanup() {
  local status=$?
  set +e
  if [ "$deployed" = 1 ]; then
    if [ "$status" -ne 0 ] || [ "$failures" -ne 0 ]; then
      echo "-- last log lines of the stack's services:"
      for service in nginx app redis; do timeout 30 docker service logs --tail 10 "${STACK}_$service" 2>&1 | sed 's/^/    /'; done
    fi
    timeout 60 docker stack rm "$STACK" >/dev/null 2>&1
    # The stack's network goes once its tasks have stopped; leaving the swarm before that would strand it.
    for _ in $(seq 1 30); do
      [ -z "$(timeout 15 docker network ls -q --filter "label=com.docker.stack.namespace=$STACK")" ] && break
      sleep 1
    done
  fi
  [ "$secret_made" = 1 ] && remove_secret "$SECRET"
  [ "$labelled" = 1 ] && [ "$joined" = 0 ] && timeout 30 docker node update --label-rm catalogue.redis "$node_id" >/dev/null 2>&1
  if [ "$joined" = 1 ]; then timeout 60 docker swarm leave --force >/dev/null 2>&1 && log "left the swarm"; fi
  # Redis's volume, this run's own (docker stack rm keeps volumes): free once its last container is gone.
  if [ "$deployed" = 1 ]; then
    for _ in $(seq 1 30); do
      timeout 15 docker volume rm "${STACK}_redis-data" >/dev/null 2>&1 && break
      timeout 15 docker volume inspect "${STACK}_redis-data" >/dev/null 2>&1 || break
      sleep 1
    done
  fi
  timeout 60 docker rmi "$UPDATE_IMAGE" >/dev/null 2>&1
  summary "fleet" "$status"
  exit "$(verdict "$status")"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started=$(now_ms)
bash scripts/docker/build.sh >/dev/null || { fail "images built (run scripts/docker/build.sh to see why)"; exit 1; }
pass "images built or current ($(seconds_since "$started") s)"
# The rolling update's new image: the app image under a new tag with one label more, so a new image id.
printf 'FROM %s\nLABEL org.opencontainers.image.version=fleet-update\n' "$IMAGE" \
  | timeout 120 docker build -q -t "$UPDATE_IMAGE" - >/dev/null 2>&1 || { fail "build $UPDATE_IMAGE"; exit 1; }

if [ "$(timeout 15 docker info --format '{{.Swarm.LocalNodeState}}')" = active ]; then
  log "this engine already is a swarm member: using it, and leaving it in the swarm afterwards"
else
  t=$(now_ms)
  timeout 60 docker swarm init >/dev/null || { fail "docker swarm init"; exit 1; }
  joined=1
  pass "docker swarm init ($(seconds_since "$t") s)"
fi

# Redis runs on the node labelled for it (deploy/swarm/stack.yml): this one.
node_id=$(timeout 15 docker info --format '{{.Swarm.NodeID}}')
if [ "$(timeout 15 docker node inspect -f '{{index .Spec.Labels "catalogue.redis"}}' self)" != true ]; then
  timeout 30 docker node update --label-add catalogue.redis=true "$node_id" >/dev/null || { fail "label this node for Redis"; exit 1; }
  labelled=1
fi
# Redis's password, in the secret the stack reads (never in this script's output or a command line).
create_redis_url_secret "$SECRET" "$(new_redis_password)" || { fail "docker secret create $SECRET"; exit 1; }
secret_made=1

port=$(free_port)
t=$(now_ms)
# The replicas' upstream is the stack's own (fleet.stack.yml); no value from this shell may reach it.
if ! deploy_log=$(env -u PRODUCTS_API_URL APP_PORT="$port" REDIS_URL_SECRET="$SECRET" CATALOGUE_IMAGE="$IMAGE" CATALOGUE_NGINX_IMAGE="$NGINX_IMAGE" \
    CATALOGUE_REDIS_IMAGE="$REDIS_IMAGE" timeout 120 docker stack deploy --resolve-image never \
    -c deploy/swarm/stack.yml -c scripts/docker/fleet.stack.yml "$STACK" 2>&1); then
  echo "$deploy_log" | tail -n 20 | sed 's/^/    /'
  fail "docker stack deploy"
  exit 1
fi
deployed=1
# Every service at its count, and nginx answering on the published port.
converged() {
  local line
  while read -r line; do
    [ "${line% *}" = "${line#* }" ] || return 1
  done < <(timeout 15 docker service ls --filter "label=com.docker.stack.namespace=$STACK" --format '{{.Replicas}}' | sed 's#/# #')
  timeout 10 node scripts/docker/probe.mjs readyz "http://127.0.0.1:$port" >/dev/null 2>&1
}
until converged; do
  if [ $(( ($(now_ms) - t) / 1000 )) -ge "$HEALTHY_TIMEOUT" ]; then
    timeout 15 docker service ls --filter "label=com.docker.stack.namespace=$STACK"
    fail "stack $STACK running and answering through nginx within ${HEALTHY_TIMEOUT}s"
    exit 1
  fi
  sleep 1
done
pass "stack $STACK deployed: nginx on port $port (host mode), three app tasks, Redis, upstream ($(seconds_since "$t") s)"

t=$(now_ms)
if timeout 600 node scripts/docker/fleet.mjs "$STACK" "$port" "$UPDATE_IMAGE"; then
  pass "fleet steps: 0 failed requests, every replica reached after each step ($(seconds_since "$t") s)"
else
  fail "fleet steps: 0 failed requests, every replica reached after each step (per-step figures above)"
fi
