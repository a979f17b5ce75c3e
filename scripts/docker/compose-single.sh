#!/usr/bin/env bash
# Container test, scenario "compose-single": `docker compose up` without a profile creates exactly one container,
# the app (docker-compose.yml's `.env` sets COMPOSE_PROFILES=single).
#
#   bash scripts/docker/compose-single.sh        # after scripts/docker/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=scripts/docker/lib.sh
source scripts/docker/lib.sh
PROJECT="catalogue-single-$$"
COMPOSE=$(compose_command)
# shellcheck disable=SC2086  # $COMPOSE is a command and its subcommand
compose() { timeout 300 $COMPOSE -p "$PROJECT" -f docker-compose.yml "$@"; }
cleanup() {
  local status=$?
  set +e
  compose --profile single --profile scale down -v --remove-orphans >/dev/null 2>&1
  summary "compose-single" "$status"
  exit "$(verdict "$status")"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

require_docker
require_images "$IMAGE"
echo "== $COMPOSE up (no profile)"
if created=$(compose up --no-start --no-build 2>&1); then
  made=$(timeout 15 docker ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Label "com.docker.compose.service"}}' | sort | tr '\n' ' ')
  if [ "$made" = "app " ]; then
    pass "$COMPOSE up without a profile creates exactly one container: app"
  else
    fail "$COMPOSE up without a profile creates exactly one container (it made: $made)"
  fi
else
  fail "$COMPOSE up --no-start: $(echo "$created" | tail -n 3)"
fi
