#!/bin/bash
# The container's health check: Redis answers PONG, authenticated with REDIS_URL_FILE's password when there is one
# (REDISCLI_AUTH, so the password is in no command line).
set -euo pipefail
if [ -n "${REDIS_URL_FILE:-}" ]; then
  # shellcheck source=deploy/redis/password.sh
  source /etc/redis/password.sh
  REDISCLI_AUTH=$(redis_password)
  export REDISCLI_AUTH
fi
[ "$(redis-cli ping)" = PONG ]
