#!/usr/bin/env bash
# Container smoke test: every scenario under scripts/docker/, in order, each with its own checks and summary:
#   build           the app, nginx and Redis images; sharp loads in the app image
#   image           the app image alone: healthy, serves the API, images and the app, non-root, stops at once
#   compose-single  `docker compose up` without a profile: the one container
#   compose-scale   the scale profile: nginx the only published port, reaching every replica (and a fourth after
#                   a scale-up, with no restart); Redis serves a restarted replica with the upstream gone; nginx's
#                   cache answers with every replica stopped
# The Swarm fleet test (scripts/docker/fleet.sh) is a phase of its own in CI.
#
#   bash scripts/docker-smoke.sh                                   # with a Docker daemon that answers
#   bash scripts/docker/compose-scale.sh                           # one scenario (after scripts/docker/build.sh)
#   bash .ci/docker/with-docker.sh bash scripts/docker-smoke.sh    # what CI runs (starts dockerd, base image)
#
# Each scenario removes the containers, networks and volumes it created, also on failure; the images stay so the
# next run is fast. Settings (environment): CATALOGUE_IMAGE (default product-catalogue:local), DOCKER_NET
# (network for builds and the single container: bridge or host), HEALTHY_TIMEOUT (s, default 90), BUILD_TIMEOUT
# (s, default 1800), COMPOSE (default: `docker compose`, else `docker-compose`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh

started=$(now_ms)
verdicts=()
status=0
for scenario in build image compose-single compose-scale; do
  echo
  echo "=== scenario $scenario"
  t=$(now_ms)
  if bash "scripts/docker/$scenario.sh"; then
    verdicts+=("PASS  $scenario ($(seconds_since "$t") s)")
  else
    verdicts+=("FAIL  $scenario ($(seconds_since "$t") s)")
    status=1
    # Nothing else can run without the images.
    [ "$scenario" = build ] && break
  fi
done
echo
echo "== docker smoke test: $(seconds_since "$started") s"
printf '  %s\n' "${verdicts[@]}"
exit "$status"
