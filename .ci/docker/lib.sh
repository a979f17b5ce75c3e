# What CI needs on a machine that is not set up for Docker: starting dockerd, with the fallbacks sandboxes need.
# Sourced by .ci/docker/*.sh, never run. An operator's machine runs its own daemon and needs none of this.
# shellcheck source=scripts/docker/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/docker/lib.sh"

DOCKERD_LOG=${DOCKERD_LOG:-$CATALOGUE_DOCKER_CACHE/dockerd.log}
DOCKERD_START_TIMEOUT=${DOCKERD_START_TIMEOUT:-60}

# Set by ensure_dockerd: the PID of a daemon this run started (empty when one was already answering), and the
# network that builds and containers must use ("bridge" normally; "host" when the daemon runs without a bridge).
DOCKERD_PID=
DOCKER_NET=${DOCKER_NET:-bridge}

# Start dockerd when none answers. Tries the normal configuration first, then the fallbacks that sandboxes and
# nested VMs usually need: no iptables/bridge (then everything uses host networking), then the vfs storage
# driver (when overlayfs is unavailable, e.g. inside another overlay). Stops at the first that answers.
ensure_dockerd() {
  command -v docker >/dev/null || die "the docker CLI is not installed (apt-get install -y docker.io)"
  if docker_answers; then
    log "a Docker daemon already answers; using it"
    # A daemon started by someone else without a bridge can only serve host networking.
    if [ "$(timeout 15 docker network ls --filter name='^bridge$' -q | wc -l)" = 0 ]; then DOCKER_NET=host; fi
    return 0
  fi
  command -v dockerd >/dev/null || die "dockerd is not installed (apt-get install -y docker.io)"
  [ "$(id -u)" = 0 ] || die "no Docker daemon answers, and starting one needs root"
  mkdir -p "$(dirname "$DOCKERD_LOG")"

  local attempts=(
    "bridge|"
    "host|--iptables=false --ip-masq=false --bridge=none"
    "host|--iptables=false --ip-masq=false --bridge=none --storage-driver=vfs"
  )
  if [ -n "${DOCKERD_EXTRA_ARGS:-}" ]; then attempts=("${DOCKERD_NET:-bridge}|$DOCKERD_EXTRA_ARGS"); fi

  local attempt net args pid started
  for attempt in "${attempts[@]}"; do
    net=${attempt%%|*}
    args=${attempt#*|}
    # A daemon that died uncleanly leaves its pid file behind, and a new one refuses to start because of it.
    if [ -f /var/run/docker.pid ] && ! kill -0 "$(cat /var/run/docker.pid 2>/dev/null)" 2>/dev/null; then
      rm -f /var/run/docker.pid
    fi
    log "starting dockerd ${args:-(default options)}; log: $DOCKERD_LOG"
    echo "=== $(date -Is) dockerd $args" >>"$DOCKERD_LOG"
    # setsid + redirected stdio: the daemon must not hold CI's pipes open or get the caller's signals.
    # shellcheck disable=SC2086  # $args is a list of flags
    setsid dockerd $args </dev/null >>"$DOCKERD_LOG" 2>&1 &
    pid=$!
    started=$(now_ms)
    while kill -0 "$pid" 2>/dev/null && ! docker_answers; do
      if [ $(( ($(now_ms) - started) / 1000 )) -ge "$DOCKERD_START_TIMEOUT" ]; then break; fi
      sleep 1
    done
    if kill -0 "$pid" 2>/dev/null && docker_answers; then
      DOCKERD_PID=$pid
      DOCKER_NET=$net
      log "dockerd is up (pid $pid, network mode $net) after $(seconds_since "$started") s"
      return 0
    fi
    log "dockerd ${args:-(default options)} did not come up within ${DOCKERD_START_TIMEOUT}s; last log lines:"
    tail -n 5 "$DOCKERD_LOG" | sed 's/^/    /'
    stop_dockerd_pid "$pid"
  done
  die "could not start dockerd with any configuration; see $DOCKERD_LOG"
}

# Stop one dockerd we started, by PID; SIGKILL if it ignores SIGTERM for 20 s.
stop_dockerd_pid() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 1; done
  kill -9 "$pid" 2>/dev/null || true
}
