#!/usr/bin/env bash
# CI's way into Docker on a machine that is not set up for it: `bash .ci/docker/with-docker.sh <command...>`
#   1. starts dockerd when none answers (with the fallbacks sandboxes need; .ci/docker/lib.sh),
#   2. makes sure the base images the Dockerfile starts from (node:<the pinned version>-bookworm-slim) and debian:bookworm-slim exist (pulled, or built from Debian with debootstrap when
#      no container registry answers; .ci/docker/build-base-image.sh),
#   3. picks the network builds must use (DOCKER_NET: bridge, or host when the bridge cannot reach the npm
#      registry), and runs the command with DOCKER_NET exported,
#   4. stops the dockerd it started (images stay in its store for the next run).
# None of this is needed where Docker is installed the usual way: there, run scripts/docker-smoke.sh directly.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=.ci/docker/lib.sh
source "$here/lib.sh"

cleanup() {
  local status=$?
  if [ -n "$DOCKERD_PID" ] && [ "${CATALOGUE_KEEP_DOCKERD:-0}" != 1 ]; then
    log "stopping the dockerd this run started (pid $DOCKERD_PID); images stay in its store for the next run"
    stop_dockerd_pid "$DOCKERD_PID"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t=$(now_ms)
ensure_dockerd
log "docker daemon answers ($(seconds_since "$t") s, network mode $DOCKER_NET)"
bash "$here/build-base-image.sh"

# The builds download npm packages and Debian packages. If the default bridge cannot reach the npm registry but
# the host network can (some sandboxes have no NAT), build on the host network instead.
registry=$(npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)
net_probe="fetch('${registry%/}/-/ping',{signal:AbortSignal.timeout(15000)}).then(()=>process.exit(0),()=>process.exit(1))"
if [ "$DOCKER_NET" = bridge ] \
    && ! timeout 60 docker run --rm --network bridge "$NODE_BASE_IMAGE" node -e "$net_probe" >/dev/null 2>&1; then
  if timeout 60 docker run --rm --network host "$NODE_BASE_IMAGE" node -e "$net_probe" >/dev/null 2>&1; then
    log "containers on the bridge cannot reach $registry, the host network can: building with --network host"
    DOCKER_NET=host
  else
    log "WARNING: no container network reaches $registry; builds only work from cached layers"
  fi
fi
export DOCKER_NET
"$@"
