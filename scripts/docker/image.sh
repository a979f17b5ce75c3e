#!/usr/bin/env bash
# Container test, scenario "image": the app image alone (embedded catalogue, no internet needed) becomes healthy,
# serves /healthz, /readyz, the API, an image, the categories with their CORS header, the OpenAPI document and the
# home page; runs as non-root with tini as PID 1; and stops within 3 s of SIGTERM.
#
#   bash scripts/docker/image.sh        # after scripts/docker/build.sh
#
# Removes its container, also on failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
STOP_LIMIT_S=3
CONTAINER="catalogue-smoke-$$"

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
  summary "image" "$status"
  exit "$(verdict "$status")"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

require_docker
require_images "$IMAGE"

echo "== run $IMAGE"
run_args=(--detach --name "$CONTAINER" -e PRODUCTS_API_URL= -e LOG_LEVEL=info)
if [ "$DOCKER_NET" = host ]; then
  # No port publishing on the host network: pick a free port and tell the server to listen on it.
  port=$(free_port)
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

probe healthz "$base" "GET /healthz -> 200 {\"status\":\"ok\"}"
probe readyz "$base" "GET /readyz -> 200 (catalogue can be served)"
probe products "$base" "GET /api/products -> non-empty JSON array"
probe image "$base" "GET /api/products/1/image -> 200 image/*"
probe categories "$base" "GET /api/products/categories -> names, readable from any origin"
probe openapi "$base" "GET /api/openapi.json -> an OpenAPI 3.1 document"
probe page "$base" "GET / -> HTML page"

uid=$(timeout 15 docker exec "$CONTAINER" id -u 2>&1 || true)
if [[ "$uid" =~ ^[0-9]+$ ]] && [ "$uid" -ne 0 ]; then pass "runs as non-root (uid $uid)"; else fail "runs as non-root (id -u said: $uid)"; fi
pid1=$(timeout 15 docker exec "$CONTAINER" cat /proc/1/comm 2>&1 || true)
if [ "$pid1" = tini ]; then pass "PID 1 is tini"; else fail "PID 1 is tini (it is: $pid1)"; fi

t=$(now_ms)
timeout 30 docker stop -t 10 "$CONTAINER" >/dev/null || true
stop_ms=$(( $(now_ms) - t ))
exit_code=$(timeout 15 docker inspect -f '{{.State.ExitCode}}' "$CONTAINER" 2>/dev/null || echo '?')
if [ "$stop_ms" -le $((STOP_LIMIT_S * 1000)) ]; then
  pass "docker stop -t 10 returned in $(seconds_since "$t") s (limit ${STOP_LIMIT_S} s; exit code $exit_code)"
else
  fail "docker stop -t 10 returned in $(seconds_since "$t") s, over the ${STOP_LIMIT_S} s limit (SIGTERM not handled?)"
fi
