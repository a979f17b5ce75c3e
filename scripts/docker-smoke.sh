#!/usr/bin/env bash
# Container smoke test: build the image from the Dockerfile, run it, and check that it starts healthy, serves the
# API, images and the app, runs as non-root and stops at once on SIGTERM.
#
#   bash scripts/docker-smoke.sh
#
# Starts dockerd when none answers (and stops it again at the end), and creates the base image
# node:20-bookworm-slim locally when no registry can provide it (scripts/docker/build-base-image.sh).
# Removes the container it started, also on failure; keeps the images so that the next run is fast.
# Settings (environment): CATALOGUE_IMAGE (default product-catalogue:local), CATALOGUE_DOCKER_CACHE
# (default /var/cache/catalogue-docker), CATALOGUE_KEEP_DOCKERD=1 to leave a daemon it started running,
# HEALTHY_TIMEOUT (s, default 90), BUILD_TIMEOUT (s, default 1800).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh

IMAGE=${CATALOGUE_IMAGE:-product-catalogue:local}
HEALTHY_TIMEOUT=${HEALTHY_TIMEOUT:-90}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
STOP_LIMIT_S=3
CONTAINER="catalogue-smoke-$$"
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
  if [ -n "$DOCKERD_PID" ] && [ "${CATALOGUE_KEEP_DOCKERD:-0}" != 1 ]; then
    log "stopping the dockerd this run started (pid $DOCKERD_PID); images stay in its store for the next run"
    stop_dockerd_pid "$DOCKERD_PID"
  fi
  [ "$status" -eq 0 ] && [ "$failures" -ne 0 ] && status=1
  summary "$status"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

total_started=$(now_ms)

# ---- daemon ---------------------------------------------------------------------------------------------------------
echo "== Docker daemon"
t=$(now_ms)
ensure_dockerd
pass "docker daemon answers ($(seconds_since "$t") s, network mode $DOCKER_NET)"

# ---- base image -------------------------------------------------------------------------------------------------
echo "== base image node:20-bookworm-slim"
t=$(now_ms)
bash scripts/docker/build-base-image.sh || { fail "base image node:20-bookworm-slim"; exit 1; }
pass "base image node:20-bookworm-slim ready ($(seconds_since "$t") s)"

# The build downloads npm packages and Debian's tini. If the default bridge cannot reach the npm registry but the
# host network can (some sandboxes have no NAT), build and run on the host network instead.
registry=$(npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)
net_probe="fetch('${registry%/}/-/ping',{signal:AbortSignal.timeout(15000)}).then(()=>process.exit(0),()=>process.exit(1))"
if [ "$DOCKER_NET" = bridge ] \
    && ! timeout 60 docker run --rm --network bridge node:20-bookworm-slim node -e "$net_probe" >/dev/null 2>&1; then
  if timeout 60 docker run --rm --network host node:20-bookworm-slim node -e "$net_probe" >/dev/null 2>&1; then
    log "containers on the bridge cannot reach $registry, the host network can: using --network host"
    DOCKER_NET=host
  else
    log "WARNING: no container network reaches $registry; the build only works from cached layers"
  fi
fi

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

log "smoke test took $(seconds_since "$total_started") s in all; image $IMAGE is $((size_bytes / 1000000)) MB"
