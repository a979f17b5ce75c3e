#!/usr/bin/env bash
# Container test, scenario "build": builds the three images the other scenarios run: the app (CATALOGUE_IMAGE,
# default product-catalogue:local), and Debian's nginx and redis-server on Debian's slim image (deploy/nginx,
# deploy/redis); checks that sharp's native binary loads in the app image and that no Node runtime is in the other
# two.
#
#   bash scripts/docker/build.sh        # with a Docker daemon that answers (CI: through .ci/docker/with-docker.sh)
#
# Keeps the images (the next build is seconds from the layer cache); removes the ones a rebuild replaced.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
trap 'status=$?; summary "build" "$status"; exit "$(verdict "$status")"' EXIT

require_docker
pass "docker daemon answers; base images $NODE_BASE_IMAGE and debian:bookworm-slim present; builds use network $DOCKER_NET"

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
for i in "${!build_tags[@]}"; do
  target=${build_targets[$i]}
  echo "--- docker build ${target:+--target $target }-t ${build_tags[$i]}" >>"$build_log"
  # --force-rm: a failing RUN step must not leave its stopped container (and its image) behind.
  if ! timeout "$BUILD_TIMEOUT" docker build --force-rm --network "$DOCKER_NET" ${target:+--target "$target"} \
      -t "${build_tags[$i]}" . >>"$build_log" 2>&1; then
    echo "-- last build log lines ($build_log):"
    tail -n 40 "$build_log" | sed 's/^/    /'
    fail "docker build $IMAGE (exit status or ${BUILD_TIMEOUT}s timeout; full log: $build_log)"
    exit 1
  fi
done
pass "docker build $IMAGE ($(seconds_since "$t") s)"
for i in "${!build_tags[@]}"; do
  new_id=$(timeout 30 docker image inspect -f '{{.Id}}' "${build_tags[$i]}" 2>/dev/null || true)
  if [ -n "${old_ids[$i]}" ] && [ "${old_ids[$i]}" != "$new_id" ]; then
    # Fails harmlessly when something still uses it (a container, another tag).
    timeout 120 docker rmi "${old_ids[$i]}" >/dev/null 2>&1 || true
  fi
done
log "image $IMAGE: $(( $(docker image inspect -f '{{.Size}}' "$IMAGE") / 1000000 )) MB"
if timeout 60 docker run --rm --entrypoint node "$IMAGE" -e "require('sharp')" >/dev/null 2>&1; then
  pass "sharp's native binary loads in $IMAGE"
else
  fail "sharp's native binary loads in $IMAGE"
fi

echo "== build $NGINX_IMAGE and $REDIS_IMAGE (Debian's nginx and redis-server on debian:bookworm-slim)"
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
# Debian's slim image and its package only: the Node runtime the app image carries is not in them.
for image in "$NGINX_IMAGE" "$REDIS_IMAGE"; do
  if timeout 60 docker run --rm --network none --entrypoint bash "$image" -c '! command -v node && [ ! -e /usr/local/bin/node ]' >/dev/null 2>&1; then
    pass "no Node runtime in $image ($(( $(docker image inspect -f '{{.Size}}' "$image") / 1000000 )) MB)"
  else
    fail "no Node runtime in $image"
  fi
done
