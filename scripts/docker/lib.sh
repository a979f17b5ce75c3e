# Helpers shared by scripts/docker-smoke.sh and the CI wrappers under .ci/docker/. Sourced, never run.

CATALOGUE_DOCKER_CACHE=${CATALOGUE_DOCKER_CACHE:-/var/cache/catalogue-docker}

log() { printf '[docker %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[docker %s] ERROR: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# Milliseconds since the epoch, for the timings the smoke test prints.
now_ms() { date +%s%3N; }
# seconds_since START_MS -> "12.3"
seconds_since() { local t=$(( $(now_ms) - $1 )); printf '%d.%d' $((t / 1000)) $(((t % 1000) / 100)); }

# `docker info` can itself hang when a daemon is wedged, so it is bounded too.
docker_answers() { timeout 15 docker info >/dev/null 2>&1; }
