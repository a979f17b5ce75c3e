#!/usr/bin/env bash
# Container smoke test: builds the images (the app; nginx and Redis for the scale profile), then checks
#   - the app image alone: healthy, serves the API, images and the app, runs as non-root, stops at once on SIGTERM;
#   - `docker compose up` without a profile: the one container;
#   - `docker compose --profile scale up`: nginx is the only published port and reaches every replica; with the
#     upstream gone, a restarted replica still serves the catalogue (from Redis); with every replica stopped,
#     nginx still answers from its cache.
#
#   bash scripts/docker-smoke.sh                          # with a Docker daemon that answers
#   bash .ci/docker/with-docker.sh bash scripts/docker-smoke.sh   # what CI runs (starts dockerd, base image)
#
# Removes the containers, networks and volumes it created, also on failure; keeps the images so the next run is fast.
# Settings (environment): CATALOGUE_IMAGE (default product-catalogue:local), DOCKER_NET (network for builds and the
# single container: bridge or host), HEALTHY_TIMEOUT (s, default 90), BUILD_TIMEOUT (s, default 1800), COMPOSE
# (default: `docker compose`, else `docker-compose`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
DOCKER_NET=${DOCKER_NET:-bridge}

IMAGE=${CATALOGUE_IMAGE:-product-catalogue:local}
HEALTHY_TIMEOUT=${HEALTHY_TIMEOUT:-90}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
STOP_LIMIT_S=3
CONTAINER="catalogue-smoke-$$"
# The compose project of this run: its own containers, network and volume, whatever else runs on the machine.
PROJECT="catalogue-smoke-$$"
NGINX_IMAGE=product-catalogue-nginx:local
REDIS_IMAGE=product-catalogue-redis:local
if [ -z "${COMPOSE:-}" ]; then
  if docker compose version >/dev/null 2>&1; then COMPOSE="docker compose"; else COMPOSE="docker-compose"; fi
fi
compose_up=0
# compose [args...]: this run's project, with the smoke test's upstream added to the scale profile.
compose() {
  # shellcheck disable=SC2086  # $COMPOSE is a command and its subcommand
  timeout 300 $COMPOSE -p "$PROJECT" -f docker-compose.yml -f scripts/docker/smoke.compose.yml "$@"
}
# The classic builder: it needs no buildx plugin (absent from Debian's docker.io and from bare CLIs), and it
# builds against images in the local store without trying to resolve them in a registry.
export DOCKER_BUILDKIT=0

results=()
failures=0
pass() { results+=("PASS  $1"); printf 'PASS  %s\n' "$1"; }
fail() { results+=("FAIL  $1"); printf 'FAIL  %s\n' "$1"; failures=$((failures + 1)); }

summary() {
  local status=$1
  echo
  echo "== docker smoke test summary"
  if [ ${#results[@]} -gt 0 ]; then printf '  %s\n' "${results[@]}"; fi
  if [ "$status" -eq 0 ] && [ "$failures" -eq 0 ]; then
    echo "  RESULT: PASS"
  else
    echo "  RESULT: FAIL ($failures checks failed; stopped with exit status $status)"
  fi
}

cleanup() {
  local status=$?
  set +e
  if timeout 15 docker container inspect "$CONTAINER" >/dev/null 2>&1; then
    if [ "$status" -ne 0 ] || [ "$failures" -ne 0 ]; then
      echo "-- last container log lines ($CONTAINER):"
      timeout 15 docker logs --tail 40 "$CONTAINER" 2>&1 | sed 's/^/    /'
    fi
    timeout 30 docker rm -f "$CONTAINER" >/dev/null 2>&1
  fi
  if [ "$compose_up" = 1 ]; then
    if [ "$status" -ne 0 ] || [ "$failures" -ne 0 ]; then
      echo "-- last log lines of the scale profile:"
      compose --profile scale logs --no-color --tail 15 2>&1 | sed 's/^/    /'
    fi
    compose --profile scale --profile single down -v --remove-orphans >/dev/null 2>&1
  fi
  [ "$status" -eq 0 ] && [ "$failures" -ne 0 ] && status=1
  summary "$status"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

total_started=$(now_ms)

# ---- daemon and base image -----------------------------------------------------------------------------------------
echo "== Docker"
docker_answers || die "no Docker daemon answers (on a machine without one set up, run: bash .ci/docker/with-docker.sh bash $0)"
timeout 30 docker image inspect node:20-bookworm-slim >/dev/null 2>&1 || timeout 300 docker pull node:20-bookworm-slim >/dev/null \
  || die "the base image node:20-bookworm-slim is neither present nor pullable (CI builds one: .ci/docker/with-docker.sh)"
pass "docker daemon answers; base image node:20-bookworm-slim present; builds use network $DOCKER_NET"

# ---- app image ----------------------------------------------------------------------------------------------------
echo "== build $IMAGE"
t=$(now_ms)
build_log="$CATALOGUE_DOCKER_CACHE/build.log"
mkdir -p "$CATALOGUE_DOCKER_CACHE"
: >"$build_log"
# The classic builder leaves each stage's result as an untagged image, and a rebuild after a source change
# leaves the previous ones behind (~0.5 GB a time). So the stages are built and tagged one by one (from the
# layer cache, that costs seconds), and afterwards exactly the images this tag set pointed at before, if they
# were replaced, are removed; nothing else on the machine is touched.
stage_cache=${IMAGE%%:*}-stage
build_tags=("$stage_cache:build" "$stage_cache:prod-deps" "$IMAGE")
build_targets=(build prod-deps "")
old_ids=()
for tag in "${build_tags[@]}"; do old_ids+=("$(timeout 30 docker image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)"); done
build_ok=1
for i in "${!build_tags[@]}"; do
  target=${build_targets[$i]}
  echo "--- docker build ${target:+--target $target }-t ${build_tags[$i]}" >>"$build_log"
  # --force-rm: a failing RUN step must not leave its stopped container (and its image) behind.
  if ! timeout "$BUILD_TIMEOUT" docker build --force-rm --network "$DOCKER_NET" ${target:+--target "$target"} \
      -t "${build_tags[$i]}" . >>"$build_log" 2>&1; then
    build_ok=0
    break
  fi
done
if [ "$build_ok" = 1 ]; then
  pass "docker build $IMAGE ($(seconds_since "$t") s)"
else
  echo "-- last build log lines ($build_log):"
  tail -n 40 "$build_log" | sed 's/^/    /'
  fail "docker build $IMAGE (exit status or ${BUILD_TIMEOUT}s timeout; full log: $build_log)"
  exit 1
fi
for i in "${!build_tags[@]}"; do
  new_id=$(timeout 30 docker image inspect -f '{{.Id}}' "${build_tags[$i]}" 2>/dev/null || true)
  if [ -n "${old_ids[$i]}" ] && [ "${old_ids[$i]}" != "$new_id" ]; then
    # Fails harmlessly when something still uses it (a container, another tag).
    timeout 120 docker rmi "${old_ids[$i]}" >/dev/null 2>&1 || true
  fi
done
size_bytes=$(docker image inspect -f '{{.Size}}' "$IMAGE")
log "image $IMAGE: $((size_bytes / 1000000)) MB"
if timeout 60 docker run --rm --entrypoint node "$IMAGE" -e "require('sharp')" >/dev/null 2>&1; then
  pass "sharp's native binary loads in $IMAGE"
else
  fail "sharp's native binary loads in $IMAGE"
fi

echo "== build $NGINX_IMAGE and $REDIS_IMAGE (Debian's nginx and redis-server on the same base)"
for pair in "$NGINX_IMAGE deploy/nginx" "$REDIS_IMAGE deploy/redis"; do
  t=$(now_ms)
  set -- $pair
  echo "--- docker build -t $1 $2" >>"$build_log"
  if timeout "$BUILD_TIMEOUT" docker build --force-rm --network "$DOCKER_NET" -t "$1" "$2" >>"$build_log" 2>&1; then
    pass "docker build $1 ($(seconds_since "$t") s)"
  else
    tail -n 20 "$build_log" | sed 's/^/    /'
    fail "docker build $1 (full log: $build_log)"
    exit 1
  fi
done

# ---- run ------------------------------------------------------------------------------------------------------------
echo "== run $IMAGE"
# The embedded catalogue (no upstream): the check must not depend on the internet.
run_args=(--detach --name "$CONTAINER" -e PRODUCTS_API_URL= -e LOG_LEVEL=info)
if [ "$DOCKER_NET" = host ]; then
  # No port publishing on the host network: pick a free port and tell the server to listen on it.
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  run_args+=(--network host -e PORT="$port" -e HOST=127.0.0.1)
else
  # Docker picks a free host port; bound to loopback only.
  run_args+=(--publish 127.0.0.1::3000)
fi
t=$(now_ms)
timeout 60 docker run "${run_args[@]}" "$IMAGE" >/dev/null || { fail "docker run $IMAGE"; exit 1; }
if [ "$DOCKER_NET" != host ]; then
  port=$(timeout 15 docker port "$CONTAINER" 3000/tcp 2>/dev/null | head -n 1 | sed 's/.*://' || true)
fi
[[ "$port" =~ ^[0-9]+$ ]] || { fail "find the container's published port (got '$port')"; exit 1; }
base="http://127.0.0.1:$port"
log "container $CONTAINER serves on $base"

# Wait for Docker's own HEALTHCHECK verdict, bounded; give up early if the container exits.
health=starting
while :; do
  state=$(timeout 15 docker inspect -f '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$CONTAINER" || echo "unknown unknown")
  health=${state#* }
  [ "$health" = healthy ] && break
  [ "${state%% *}" = running ] || break
  [ "$health" = unhealthy ] && break
  [ $(( ($(now_ms) - t) / 1000 )) -ge "$HEALTHY_TIMEOUT" ] && break
  sleep 1
done
if [ "$health" = healthy ]; then
  pass "container healthy (HEALTHCHECK) after $(seconds_since "$t") s"
else
  code=$(timeout 15 docker inspect -f '{{.State.ExitCode}}' "$CONTAINER" 2>/dev/null || echo '?')
  fail "container healthy within ${HEALTHY_TIMEOUT}s (after $(seconds_since "$t") s: container ${state%% *}, exit code $code, health $health)"
  exit 1
fi

# ---- HTTP checks ------------------------------------------------------------------------------------------------
probe() {
  local what=$1 label=$2 seen
  if seen=$(timeout 30 node scripts/docker/probe.mjs "$what" "$base" 2>&1); then
    pass "$label: $seen"
  else
    fail "$label: $seen"
  fi
}
probe healthz  "GET /healthz -> 200 {\"status\":\"ok\"}"
probe readyz   "GET /readyz -> 200 (catalogue can be served)"
probe products "GET /api/products -> non-empty JSON array"
probe image    "GET /api/products/1/image -> 200 image/*"
probe categories "GET /api/products/categories -> names, readable from any origin"
probe openapi  "GET /api/openapi.json -> an OpenAPI 3.1 document"
probe page     "GET / -> HTML page"

uid=$(timeout 15 docker exec "$CONTAINER" id -u 2>&1 || true)
if [[ "$uid" =~ ^[0-9]+$ ]] && [ "$uid" -ne 0 ]; then
  pass "runs as non-root (uid $uid)"
else
  fail "runs as non-root (id -u said: $uid)"
fi
pid1=$(timeout 15 docker exec "$CONTAINER" cat /proc/1/comm 2>&1 || true)
if [ "$pid1" = tini ]; then pass "PID 1 is tini"; else fail "PID 1 is tini (it is: $pid1)"; fi

# ---- stop -------------------------------------------------------------------------------------------------------
t=$(now_ms)
timeout 30 docker stop -t 10 "$CONTAINER" >/dev/null || true
stop_ms=$(( $(now_ms) - t ))
exit_code=$(timeout 15 docker inspect -f '{{.State.ExitCode}}' "$CONTAINER" 2>/dev/null || echo '?')
if [ "$stop_ms" -le $((STOP_LIMIT_S * 1000)) ]; then
  pass "docker stop -t 10 returned in $(seconds_since "$t") s (limit ${STOP_LIMIT_S} s; exit code $exit_code)"
else
  fail "docker stop -t 10 returned in $(seconds_since "$t") s, over the ${STOP_LIMIT_S} s limit (SIGTERM not handled?)"
fi

# ---- docker compose: the default is the one container ------------------------------------------------------------
echo "== $COMPOSE up (no profile)"
compose_up=1
# The containers of this project, by service name.
project_services() {
  timeout 15 docker ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Label "com.docker.compose.service"}}' | sort | tr '\n' ' '
}
if created=$(compose up --no-start --no-build 2>&1); then
  if [ "$(project_services)" = "app " ]; then
    pass "$COMPOSE up without a profile creates exactly one container: app"
  else
    fail "$COMPOSE up without a profile creates exactly one container (it made: $(project_services))"
  fi
else
  fail "$COMPOSE up --no-start: $(echo "$created" | tail -n 3)"
fi
compose --profile single down >/dev/null 2>&1 || true

# ---- docker compose --profile scale -------------------------------------------------------------------------------
echo "== $COMPOSE --profile scale up"
if [ "$(timeout 15 docker network ls --filter driver=bridge -q | wc -l)" = 0 ]; then
  fail "the scale profile needs bridge networking, which this daemon does not offer"
  exit 1
fi
scale_port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export APP_PORT=$scale_port PRODUCTS_API_URL=http://upstream:3000/api LOG_LEVEL=info
t=$(now_ms)
if ! up_log=$(compose --profile scale up -d --no-build 2>&1); then
  echo "$up_log" | tail -n 20 | sed 's/^/    /'
  fail "$COMPOSE --profile scale up -d"
  exit 1
fi
scale_base="http://127.0.0.1:$scale_port"

# wait_healthy SERVICE...: Docker's health verdict for each, bounded by HEALTHY_TIMEOUT.
wait_healthy() {
  local service id health started
  started=$(now_ms)
  for service in "$@"; do
    while :; do
      id=$(compose ps -q "$service" 2>/dev/null | head -n 1)
      health=$(timeout 15 docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id" 2>/dev/null || echo unknown)
      [ "$health" = healthy ] && break
      [ $(( ($(now_ms) - started) / 1000 )) -ge "$HEALTHY_TIMEOUT" ] && { echo "$service: $health"; return 1; }
      sleep 1
    done
  done
}
if wait_healthy redis app-1 app-2 app-3 nginx; then
  pass "scale profile healthy: nginx, redis, app-1..3 ($(seconds_since "$t") s)"
else
  fail "scale profile healthy within ${HEALTHY_TIMEOUT}s"
  exit 1
fi

published=$(timeout 15 docker ps --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Label "com.docker.compose.service"}} {{.Ports}}' \
  | grep -- '->' | cut -d' ' -f1 | sort | tr '\n' ' ')
if [ "$published" = "nginx " ]; then
  pass "nginx is the only published port (APP_PORT=$scale_port)"
else
  fail "nginx is the only published port (published: $published)"
fi

scale_probe() {
  local what=$1 label=$2 seen
  if seen=$(timeout 30 node scripts/docker/probe.mjs "$what" "$scale_base" 2>&1); then pass "$label: $seen"; else fail "$label: $seen"; fi
}
scale_probe products "through nginx: GET /api/products -> non-empty JSON array"
scale_probe proxy-cache-hit "through nginx: GET /api/products again -> answered from nginx's cache"
scale_probe page "through nginx: GET / -> HTML page"
scale_probe categories "through nginx: GET /api/products/categories -> names, readable from any origin"

# Answers nginx must not cache (404s are no-store) go round-robin: each replica should log some of them.
for i in 1 2 3 4 5 6 7 8 9; do
  timeout 10 node -e "fetch('$scale_base/api/smoke-$PROJECT-$i').then(r=>r.arrayBuffer(),()=>{})" || true
done
spread=""
all_reached=1
for replica in app-1 app-2 app-3; do
  n=$(compose logs --no-color "$replica" 2>/dev/null | grep -c "/api/smoke-$PROJECT-" || true)
  spread="$spread $replica:$n"
  [ "$n" -ge 1 ] || all_reached=0
done
if [ "$all_reached" = 1 ]; then pass "requests through nginx reach every replica ($spread )"; else fail "requests through nginx reach every replica ($spread )"; fi

# The upstream goes away; a replica restarts with an empty memory and must serve the catalogue from Redis.
compose stop upstream >/dev/null 2>&1
compose restart app-2 >/dev/null 2>&1
if wait_healthy app-2; then
  seen=$(compose exec -T app-2 node -e "
    fetch('http://127.0.0.1:3000/api/products',{signal:AbortSignal.timeout(10000)})
      .then(async r=>{const b=await r.json();console.log(r.status,r.headers.get('x-cache'),Array.isArray(b)?b.length:'not-a-list')},e=>console.log('failed',e.message))" 2>&1 | tail -n 1)
  ready=$(compose exec -T app-2 node -e "
    fetch('http://127.0.0.1:3000/readyz',{signal:AbortSignal.timeout(10000)}).then(async r=>console.log(r.status,await r.text()),e=>console.log('failed',e.message))" 2>&1 | tail -n 1)
  if [[ "$seen" =~ ^200\ (HIT|STALE)\ [1-9] ]]; then
    pass "upstream stopped, app-2 restarted: it serves the catalogue from Redis ($seen; readyz $ready)"
  else
    fail "upstream stopped, app-2 restarted: it serves the catalogue from Redis (it answered: $seen; readyz $ready)"
  fi
else
  fail "app-2 healthy again after a restart"
fi

# Every replica gone: nginx answers from its own cache.
compose stop app-1 app-2 app-3 >/dev/null 2>&1
scale_probe proxy-cache-any "every replica stopped: GET /api/products through nginx -> still answered from its cache"
log "scale profile checks took $(seconds_since "$t") s"

log "smoke test took $(seconds_since "$total_started") s in all; image $IMAGE is $((size_bytes / 1000000)) MB"
