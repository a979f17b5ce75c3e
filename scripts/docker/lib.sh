# Helpers shared by the container tests (scripts/docker-smoke.sh and the scenarios under scripts/docker/) and the CI
# wrappers under .ci/docker/. Sourced, never run.

CATALOGUE_DOCKER_CACHE=${CATALOGUE_DOCKER_CACHE:-/var/cache/catalogue-docker}
# The images the scenarios build and run.
IMAGE=${CATALOGUE_IMAGE:-product-catalogue:local}
NGINX_IMAGE=${CATALOGUE_NGINX_IMAGE:-product-catalogue-nginx:local}
REDIS_IMAGE=${CATALOGUE_REDIS_IMAGE:-product-catalogue-redis:local}
# Network for builds and the single container: bridge, or host where the daemon has no bridge (.ci/docker/).
DOCKER_NET=${DOCKER_NET:-bridge}
# The app's base image, read from the Dockerfile's first FROM (the pinned Node: docs/decisions/node-runtime.md), so
# the scenarios and CI's stand-in name the image the build starts from.
NODE_BASE_IMAGE=$(sed -n 's/^FROM \(node:[^ ]*\) .*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../../Dockerfile" | head -n 1)
HEALTHY_TIMEOUT=${HEALTHY_TIMEOUT:-90}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-1800}
# The classic builder: it needs no buildx plugin (absent from Debian's docker.io and from bare CLIs), and it
# builds against images in the local store without trying to resolve them in a registry.
export DOCKER_BUILDKIT=0

log() { printf '[docker %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[docker %s] ERROR: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# Milliseconds since the epoch, for the timings the tests print.
now_ms() { date +%s%3N; }
# seconds_since START_MS -> "12.3"
seconds_since() { local t=$(( $(now_ms) - $1 )); printf '%d.%d' $((t / 1000)) $(((t % 1000) / 100)); }

# `docker info` can itself hang when a daemon is wedged, so it is bounded too.
docker_answers() { timeout 15 docker info >/dev/null 2>&1; }

# A free TCP port on the loopback (the kernel's choice), for a published port.
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# ---- checks: one PASS/FAIL line each, and the summary a scenario ends with --------------------------------------
results=()
failures=0
pass() { results+=("PASS  $1"); printf 'PASS  %s\n' "$1"; }
fail() { results+=("FAIL  $1"); printf 'FAIL  %s\n' "$1"; failures=$((failures + 1)); }

# summary TITLE STATUS: every check of this scenario and its verdict.
summary() {
  local title=$1 status=$2
  echo
  echo "== $title: summary"
  if [ ${#results[@]} -gt 0 ]; then printf '  %s\n' "${results[@]}"; fi
  if [ "$status" -eq 0 ] && [ "$failures" -eq 0 ]; then
    echo "  RESULT: PASS"
  else
    echo "  RESULT: FAIL ($failures checks failed; stopped with exit status $status)"
  fi
}

# The verdict a scenario's EXIT trap exits with: its own status, or 1 when a check failed along the way.
verdict() { local status=$1; if [ "$status" -eq 0 ] && [ "$failures" -ne 0 ]; then echo 1; else echo "$status"; fi; }

# Fails the scenario at once when no daemon answers or a base image is missing: $NODE_BASE_IMAGE (the app),
# debian:bookworm-slim (nginx, Redis).
require_docker() {
  local base
  docker_answers || die "no Docker daemon answers (on a machine without one set up, run: bash .ci/docker/with-docker.sh bash $0)"
  for base in "$NODE_BASE_IMAGE" debian:bookworm-slim; do
    timeout 30 docker image inspect "$base" >/dev/null 2>&1 || timeout 300 docker pull "$base" >/dev/null \
      || die "the base image $base is neither present nor pullable (CI builds one: .ci/docker/with-docker.sh)"
  done
}

# Fails the scenario at once when an image it runs is not built (scripts/docker/build.sh builds them).
require_images() {
  local image
  for image in "$@"; do
    timeout 30 docker image inspect "$image" >/dev/null 2>&1 || die "image $image is not built (run: bash scripts/docker/build.sh)"
  done
}

# probe CHECK BASE LABEL: one HTTP check of scripts/docker/probe.mjs, as a PASS or FAIL line.
probe() {
  local what=$1 base=$2 label=$3 seen
  if seen=$(timeout 30 node scripts/docker/probe.mjs "$what" "$base" 2>&1); then pass "$label: $seen"; else fail "$label: $seen"; fi
}

# `docker compose` where the CLI has it, else Debian's docker-compose; COMPOSE overrides.
compose_command() {
  if [ -n "${COMPOSE:-}" ]; then echo "$COMPOSE"; elif docker compose version >/dev/null 2>&1; then echo "docker compose"; else echo docker-compose; fi
}

# ---- the Swarm stack's one secret (deploy/swarm/stack.yml, docs/scaling.md "Secrets") --------------------------------
# A new random Redis password: hex, so it needs no escaping in a URL or in Redis's configuration.
new_redis_password() { node -e "process.stdout.write(require('node:crypto').randomBytes(24).toString('hex'))"; }

# create_redis_url_secret NAME PASSWORD: the Swarm secret the stack's replicas and Redis read (REDIS_URL_FILE), made
# through standard input so the password is in no command line.
create_redis_url_secret() {
  printf 'redis://:%s@redis:6379' "$2" | timeout 30 docker secret create "$1" - >/dev/null
}

# remove_secret NAME: once the tasks that use it are gone (a stack just removed may still hold it for a while).
remove_secret() {
  local _
  for _ in $(seq 1 30); do
    timeout 15 docker secret rm "$1" >/dev/null 2>&1 && return 0
    timeout 15 docker secret inspect "$1" >/dev/null 2>&1 || return 0
    sleep 1
  done
  return 1
}
