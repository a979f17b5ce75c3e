#!/usr/bin/env bash
# The three-node drill (docs/scaling.md, "The three-node drill"): three Docker engines on this machine, each in a
# container of its own (Debian's docker.io on the project's base image, scripts/docker/swarm-node/; every capability
# but SYS_RESOURCE, on a pinned subnet), joined as one manager and two workers; the images pushed to a local registry (Debian's
# docker-registry) that the nodes pull from; deploy/swarm/stack.yml deployed as shipped, Redis on the worker labelled
# catalogue.redis=true, its password in a Swarm secret. Then scripts/docker/swarm-drill.mjs, under steady load
# through the manager's nginx: the other worker killed, Redis's node drained and made active, the killed node back,
# the replicas spread again; 0 failed requests and Redis's key kept. Last, the password must be in no `docker
# inspect` of any engine, no service's log and no file of the stack.
#
#   bash scripts/docker/swarm-drill.sh                                   # with a Docker daemon that answers
#   bash .ci/docker/with-docker.sh bash scripts/docker/swarm-drill.sh    # what CI runs
#
# A machine whose Docker cannot run such containers on a network of their own skips the drill, saying so, and
# exits 0. Everything the drill makes (containers, their volumes, the network, the registry and its storage,
# the pushed tags) is removed at the end, also on failure or interruption.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh

RUN="catalogue-drill-$$"
# The nodes' network: pinned, so the nodes keep their addresses across a restart and the registry's is known.
SUBNET_PREFIX=${DRILL_SUBNET_PREFIX:-10.213.213}
NODE_IMAGE=catalogue-swarm-node:local
NODES=(manager worker1 worker2)
declare -A NODE_IP=([manager]=$SUBNET_PREFIX.10 [worker1]=$SUBNET_PREFIX.11 [worker2]=$SUBNET_PREFIX.12)
# The node the operator names for Redis (its volume lives there); the drill kills the other worker.
REDIS_NODE=worker1
STACK=catalogue
APP_PORT=3000
# What an engine in a container needs: every capability but SYS_RESOURCE (which these machines' kernels refuse even
# to --privileged), no seccomp or AppArmor profile, /proc and /sys unmasked, its own cgroup namespace (the node's
# start script mounts the cgroups it needs writable).
NODE_SECURITY=(--cap-add ALL --cap-drop SYS_RESOURCE --security-opt seccomp=unconfined --security-opt apparmor=unconfined
  --security-opt systempaths=unconfined --cgroupns private)
work=
registry_pid=
pushed=()
password=

engine() { echo "tcp://${NODE_IP[$1]}:2375"; }
# docker_on NODE ARGS...: a docker command on that node's engine.
docker_on() { local node=$1; shift; DOCKER_HOST=$(engine "$node") timeout 120 docker "$@"; }

cleanup() {
  local status=$?
  set +e
  if [ "$status" -ne 0 ] || [ "$failures" -ne 0 ]; then
    echo "-- the swarm as it was:"
    docker_on manager node ls 2>&1 | sed 's/^/    /'
    docker_on manager service ls 2>&1 | sed 's/^/    /'
    for service in nginx app redis; do docker_on manager service ps --no-trunc "${STACK}_$service" 2>&1 | tail -n 6 | sed 's/^/    /'; done
    for node in "${NODES[@]}"; do
      echo "-- node $node: $(timeout 15 docker inspect -f '{{.State.Status}} (exit {{.State.ExitCode}})' "$RUN-$node" 2>&1), last lines:"
      timeout 15 docker logs --tail 8 "$RUN-$node" 2>&1 | sed 's/^/    /'
    done
  fi
  local ids
  ids=$(timeout 30 docker ps -aq --filter "label=catalogue-drill=$RUN")
  # shellcheck disable=SC2086  # a list of ids
  [ -n "$ids" ] && timeout 120 docker rm -f -v $ids >/dev/null
  ids=$(timeout 30 docker volume ls -q --filter "label=catalogue-drill=$RUN")
  # shellcheck disable=SC2086
  [ -n "$ids" ] && timeout 120 docker volume rm $ids >/dev/null
  timeout 60 docker network rm "$RUN" >/dev/null 2>&1
  [ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null && wait "$registry_pid" 2>/dev/null
  [ ${#pushed[@]} -gt 0 ] && timeout 60 docker rmi "${pushed[@]}" >/dev/null 2>&1
  [ -n "$work" ] && rm -rf "$work"
  log "removed the drill's containers, volumes, network, registry and tags"
  summary "swarm drill" "$status"
  exit "$(verdict "$status")"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- can this machine run it? ------------------------------------------------------------------------------------
require_docker
if [ "$DOCKER_NET" != bridge ]; then
  log "SKIP: the swarm drill needs container networks, and this Docker daemon runs without a bridge (DOCKER_NET=$DOCKER_NET)"
  exit 0
fi
if ! timeout 60 docker run --rm "${NODE_SECURITY[@]}" --network none "$NODE_BASE_IMAGE" true >/dev/null 2>&1; then
  log "SKIP: the swarm drill needs containers with every capability but SYS_RESOURCE (a Docker engine in each), and this Docker daemon cannot run them"
  exit 0
fi
command -v docker-registry >/dev/null || die "docker-registry is not installed (apt-get install -y docker-registry)"

# ---- images, network, registry ------------------------------------------------------------------------------------
t=$(now_ms)
bash scripts/docker/build.sh >/dev/null || { fail "images built (run scripts/docker/build.sh to see why)"; exit 1; }
timeout "$BUILD_TIMEOUT" docker build -q --network "$DOCKER_NET" -t "$NODE_IMAGE" scripts/docker/swarm-node >/dev/null 2>&1 \
  || { fail "docker build $NODE_IMAGE"; exit 1; }
pass "images built or current, the node image too ($(seconds_since "$t") s)"

work=$(mktemp -d "${TMPDIR:-/tmp}/catalogue-drill.XXXXXX")
timeout 30 docker network create --label "catalogue-drill=$RUN" --subnet "$SUBNET_PREFIX.0/24" --gateway "$SUBNET_PREFIX.1" "$RUN" >/dev/null \
  || { fail "docker network create --subnet $SUBNET_PREFIX.0/24 (taken? DRILL_SUBNET_PREFIX picks another)"; exit 1; }

t=$(now_ms)
registry_port=$(free_port)
mkdir -p "$work/registry"
cat >"$work/registry.yml" <<EOF
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $work/registry
http:
  addr: 0.0.0.0:$registry_port
EOF
docker-registry serve "$work/registry.yml" >"$work/registry.log" 2>&1 &
registry_pid=$!
# This machine pushes to it on the loopback (which Docker trusts without TLS); the nodes pull from the network's
# gateway address, which they are told to trust (--insecure-registry).
until node -e "fetch('http://127.0.0.1:$registry_port/v2/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; do
  kill -0 "$registry_pid" 2>/dev/null || { cat "$work/registry.log"; fail "docker-registry started"; exit 1; }
  sleep 0.5
done
declare -A PULL_NAME
for image in "$IMAGE" "$NGINX_IMAGE" "$REDIS_IMAGE"; do
  name=${image%%:*}
  local_tag="127.0.0.1:$registry_port/$name:drill"
  timeout 60 docker tag "$image" "$local_tag"
  pushed+=("$local_tag")
  timeout 600 docker push -q "$local_tag" >/dev/null || { fail "docker push $local_tag"; exit 1; }
  PULL_NAME[$image]="$SUBNET_PREFIX.1:$registry_port/$name:drill"
done
pass "local registry on port $registry_port, the three images pushed ($(seconds_since "$t") s)"

# ---- three engines, one swarm -------------------------------------------------------------------------------------
t=$(now_ms)
for node in "${NODES[@]}"; do
  timeout 30 docker volume create --label "catalogue-drill=$RUN" "$RUN-$node" >/dev/null
  # --init reaps what the engine leaves.
  timeout 60 docker run -d "${NODE_SECURITY[@]}" --init --name "$RUN-$node" --hostname "$node" --label "catalogue-drill=$RUN" \
    --network "$RUN" --ip "${NODE_IP[$node]}" -v "$RUN-$node:/var/lib/docker" "$NODE_IMAGE" \
    --host="$(engine "$node")" --tls=false --insecure-registry="$SUBNET_PREFIX.1:$registry_port" >/dev/null \
    || { fail "start node $node"; exit 1; }
done
for node in "${NODES[@]}"; do
  until DOCKER_HOST=$(engine "$node") docker_answers; do
    if [ $(( ($(now_ms) - t) / 1000 )) -ge "$HEALTHY_TIMEOUT" ]; then
      timeout 15 docker logs --tail 20 "$RUN-$node" 2>&1 | sed 's/^/    /'
      fail "node $node's engine answering within ${HEALTHY_TIMEOUT}s"
      exit 1
    fi
    sleep 1
  done
done
docker_on manager swarm init --advertise-addr "${NODE_IP[manager]}" >/dev/null || { fail "docker swarm init on the manager"; exit 1; }
token=$(docker_on manager swarm join-token -q worker)
for node in worker1 worker2; do
  docker_on "$node" swarm join --token "$token" "${NODE_IP[manager]}:2377" >/dev/null || { fail "$node joins the swarm"; exit 1; }
done
docker_on manager node update --label-add catalogue.redis=true "$REDIS_NODE" >/dev/null
pass "three engines (Docker $(docker_on manager version --format '{{.Server.Version}}')), one manager and two workers; Redis's node: $REDIS_NODE ($(seconds_since "$t") s)"

# ---- the stack, as shipped, with its secret -------------------------------------------------------------------------
t=$(now_ms)
password=$(new_redis_password)
DOCKER_HOST=$(engine manager) create_redis_url_secret catalogue_redis_url "$password" || { fail "docker secret create"; exit 1; }
if ! deploy_log=$(env -u PRODUCTS_API_URL DOCKER_HOST="$(engine manager)" APP_PORT=$APP_PORT CATALOGUE_IMAGE="${PULL_NAME[$IMAGE]}" \
    CATALOGUE_NGINX_IMAGE="${PULL_NAME[$NGINX_IMAGE]}" CATALOGUE_REDIS_IMAGE="${PULL_NAME[$REDIS_IMAGE]}" timeout 120 \
    docker stack deploy -c deploy/swarm/stack.yml -c scripts/docker/fleet.stack.yml -c scripts/docker/swarm-drill.stack.yml "$STACK" 2>&1); then
  echo "$deploy_log" | tail -n 20 | sed 's/^/    /'
  fail "docker stack deploy"
  exit 1
fi
# Every service at its count (nginx: one per node), and the manager's nginx answering.
converged() {
  local line
  while read -r line; do
    [ "${line% *}" = "${line#* }" ] || return 1
  done < <(docker_on manager service ls --filter "label=com.docker.stack.namespace=$STACK" --format '{{.Replicas}}' | sed 's#/# #')
  timeout 10 node scripts/docker/probe.mjs readyz "http://${NODE_IP[manager]}:$APP_PORT" >/dev/null 2>&1
}
# Pulling the images onto three engines at once takes a while on a shared machine.
until converged; do
  if [ $(( ($(now_ms) - t) / 1000 )) -ge $((HEALTHY_TIMEOUT * 3)) ]; then
    fail "stack running and answering through the manager's nginx within $((HEALTHY_TIMEOUT * 3))s"
    exit 1
  fi
  sleep 2
done
pass "stack deployed from the registry: nginx on every node (host mode, port $APP_PORT), 3 app replicas, Redis on $REDIS_NODE ($(seconds_since "$t") s)"

# ---- the drill -----------------------------------------------------------------------------------------------------
nodes_json=$(for node in "${NODES[@]}"; do
  printf '"%s":{"engine":"%s","container":"%s","url":"http://%s:%s"}\n' "$node" "$(engine "$node")" "$RUN-$node" "${NODE_IP[$node]}" "$APP_PORT"
done | paste -sd, -)
t=$(now_ms)
if DOCKER_HOST=$(engine manager) DRILL_NODES="{$nodes_json}" DRILL_REDIS_NODE=$REDIS_NODE timeout 900 \
    node scripts/docker/swarm-drill.mjs "$STACK" "http://${NODE_IP[manager]}:$APP_PORT"; then
  pass "drill: 0 failed requests, every replica reached after each step, Redis's key kept ($(seconds_since "$t") s)"
else
  fail "drill: 0 failed requests, every replica reached after each step, Redis's key kept (per-step figures above)"
fi

# ---- the password: in the secret only --------------------------------------------------------------------------------
# grep -c reads all of its input (grep -q would stop early, and the writer's broken pipe would hide a find).
leaked() { grep -cF -- "$password" >/dev/null; }
leaks=()
for node in "${NODES[@]}"; do
  # A node that cannot be asked is a check not made, not a pass.
  if ! ids=$(docker_on "$node" ps -aq) || [ -z "$ids" ]; then leaks+=("(node $node's containers could not be inspected)"); continue; fi
  # shellcheck disable=SC2086  # a list of ids
  docker_on "$node" inspect $ids | leaked && leaks+=("docker inspect of $node's containers")
  docker_on manager node inspect "$node" | leaked && leaks+=("docker node inspect $node")
done
# shellcheck disable=SC2046
docker_on manager service inspect $(docker_on manager service ls -q) | leaked && leaks+=("docker service inspect")
docker_on manager secret inspect catalogue_redis_url | leaked && leaks+=("docker secret inspect")
for service in nginx app redis upstream; do
  docker_on manager service logs --raw "${STACK}_$service" 2>&1 | leaked && leaks+=("the logs of ${STACK}_$service")
done
# shellcheck disable=SC2046
timeout 30 docker inspect $(timeout 30 docker ps -aq --filter "label=catalogue-drill=$RUN") | leaked && leaks+=("docker inspect of the node containers")
cat deploy/swarm/stack.yml scripts/docker/*.yml | leaked && leaks+=("the stack's files")
if [ ${#leaks[@]} -eq 0 ]; then
  pass "Redis's password is in no docker inspect (containers, services, nodes, secret), no service's log, no stack file"
else
  fail "Redis's password found in, or not looked for in: ${leaks[*]}"
fi
