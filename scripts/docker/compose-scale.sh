#!/usr/bin/env bash
# Container test, scenario "compose-scale": `docker compose --profile scale up` (nginx, Redis, three replicas, and
# an upstream of the test's own, scripts/docker/smoke.compose.yml) checks that nginx is the only published port;
# that the API, a page and the categories (with their CORS header) come through it, the list then from its cache;
# that nginx reaches every replica, and a fourth one after `--scale replica=4` without being restarted; that with
# the upstream gone a restarted replica serves the catalogue from Redis; and that with every replica stopped nginx
# still answers from its cache.
#
#   bash scripts/docker/compose-scale.sh        # after scripts/docker/build.sh
#
# Removes its containers, network and volume, also on failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
# The compose project of this run: its own containers, network and volume, whatever else runs on the machine.
PROJECT="catalogue-scale-$$"
COMPOSE=$(compose_command)
# compose [args...]: this run's project, with the test's upstream added to the scale profile.
# shellcheck disable=SC2086  # $COMPOSE is a command and its subcommand
compose() { timeout 300 $COMPOSE -p "$PROJECT" -f docker-compose.yml -f scripts/docker/smoke.compose.yml --profile scale "$@"; }
compose_up=0
cleanup() {
  local status=$?
  set +e
  if [ "$compose_up" = 1 ]; then
    if [ "$status" -ne 0 ] || [ "$failures" -ne 0 ]; then
      echo "-- last log lines of the scale profile:"
      compose logs --no-color --tail 15 2>&1 | sed 's/^/    /'
    fi
    compose down -v --remove-orphans >/dev/null 2>&1
  fi
  summary "compose-scale" "$status"
  exit "$(verdict "$status")"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

require_docker
require_images "$IMAGE" "$NGINX_IMAGE" "$REDIS_IMAGE"
if [ "$(timeout 15 docker network ls --filter driver=bridge -q | wc -l)" = 0 ]; then
  fail "the scale profile needs bridge networking, which this daemon does not offer"
  exit 1
fi

# containers SERVICE: the ids of this project's running containers of one service.
containers() { timeout 15 docker ps -q --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1"; }
# addresses SERVICE: their addresses on the project's network, sorted as probe.mjs prints them.
addresses() {
  local ids
  ids=$(containers "$1")
  [ -n "$ids" ] || return 0
  # shellcheck disable=SC2086  # a list of ids
  timeout 15 docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' $ids | sort | tr '\n' ' ' | sed 's/ $//'
}
# wait_healthy SERVICE...: Docker's health verdict for every container of each, bounded by HEALTHY_TIMEOUT.
wait_healthy() {
  local service id health started
  started=$(now_ms)
  for service in "$@"; do
    for id in $(containers "$service"); do
      while :; do
        health=$(timeout 15 docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id" 2>/dev/null || echo unknown)
        [ "$health" = healthy ] && break
        [ $(( ($(now_ms) - started) / 1000 )) -ge "$HEALTHY_TIMEOUT" ] && { echo "$service: $health"; return 1; }
        sleep 1
      done
    done
  done
}

echo "== $COMPOSE --profile scale up"
port=$(free_port)
export APP_PORT=$port PRODUCTS_API_URL=http://upstream:3000/api LOG_LEVEL=info
base="http://127.0.0.1:$port"
t=$(now_ms)
compose_up=1
if ! up_log=$(compose up -d --no-build 2>&1); then
  echo "$up_log" | tail -n 20 | sed 's/^/    /'
  fail "$COMPOSE --profile scale up -d"
  exit 1
fi
if wait_healthy redis replica nginx && [ "$(containers replica | wc -l)" = 3 ]; then
  pass "scale profile healthy: nginx, redis, three replicas ($(seconds_since "$t") s)"
else
  fail "scale profile healthy within ${HEALTHY_TIMEOUT}s with three replicas ($(containers replica | wc -l) running)"
  exit 1
fi

published=$(timeout 15 docker ps --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Label "com.docker.compose.service"}} {{.Ports}}' \
  | grep -- '->' | cut -d' ' -f1 | sort | tr '\n' ' ')
if [ "$published" = "nginx " ]; then pass "nginx is the only published port (APP_PORT=$port)"; else fail "nginx is the only published port (published: $published)"; fi

probe products "$base" "through nginx: GET /api/products -> non-empty JSON array"
probe proxy-cache-hit "$base" "through nginx: GET /api/products again -> answered from nginx's cache"
probe page "$base" "through nginx: GET / -> HTML page"
probe categories "$base" "through nginx: GET /api/products/categories -> names, readable from any origin"

# check_spread LABEL: the replicas nginx reaches (X-Replica on the uncached /healthz) are exactly the running ones.
check_spread() {
  local expected seen
  expected=$(addresses replica)
  seen=$(timeout 60 node scripts/docker/probe.mjs replicas "$base" 2>&1 || true)
  if [ "$seen" = "$expected" ]; then pass "$1: nginx reaches every replica ($seen)"; else fail "$1: nginx reaches every replica (expected $expected, reached $seen)"; fi
}
check_spread "three replicas"

# One more replica: Docker's DNS answers the service name with it too, and nginx asks again within a second.
nginx_id=$(containers nginx)
nginx_started=$(timeout 15 docker inspect -f '{{.State.StartedAt}}' "$nginx_id")
t=$(now_ms)
compose up -d --no-build --no-recreate --scale replica=4 >/dev/null 2>&1 || fail "$COMPOSE up --scale replica=4"
if wait_healthy replica && [ "$(containers replica | wc -l)" = 4 ]; then
  check_spread "scaled to four ($(seconds_since "$t") s)"
else
  fail "a fourth replica healthy within ${HEALTHY_TIMEOUT}s"
fi
if [ "$(containers nginx)" = "$nginx_id" ] && [ "$(timeout 15 docker inspect -f '{{.State.StartedAt}}' "$nginx_id")" = "$nginx_started" ]; then
  pass "nginx was not restarted or recreated by the scale-up"
else
  fail "nginx was not restarted or recreated by the scale-up"
fi

# The upstream goes away; a replica restarts with an empty memory and must serve the catalogue from Redis.
compose stop upstream >/dev/null 2>&1
restarted=$(containers replica | head -n 1)
timeout 60 docker restart "$restarted" >/dev/null 2>&1
if wait_healthy replica; then
  seen=$(timeout 30 docker exec "$restarted" node -e "
    fetch('http://127.0.0.1:3000/api/products',{signal:AbortSignal.timeout(10000)})
      .then(async r=>{const b=await r.json();console.log(r.status,r.headers.get('x-cache'),Array.isArray(b)?b.length:'not-a-list')},e=>console.log('failed',e.message))" 2>&1 | tail -n 1)
  ready=$(timeout 30 docker exec "$restarted" node -e "
    fetch('http://127.0.0.1:3000/readyz',{signal:AbortSignal.timeout(10000)}).then(async r=>console.log(r.status,await r.text()),e=>console.log('failed',e.message))" 2>&1 | tail -n 1)
  if [[ "$seen" =~ ^200\ (HIT|STALE)\ [1-9] ]]; then
    pass "upstream stopped, a replica restarted: it serves the catalogue from Redis ($seen; readyz $ready)"
  else
    fail "upstream stopped, a replica restarted: it serves the catalogue from Redis (it answered: $seen; readyz $ready)"
  fi
else
  fail "the restarted replica healthy again"
fi

# Every replica gone: nginx answers from its own cache.
compose stop replica >/dev/null 2>&1
probe proxy-cache-any "$base" "every replica stopped: GET /api/products through nginx -> still answered from its cache"
log "scale profile checks took $(seconds_since "$t") s"
