#!/bin/bash
# Starts Redis with /etc/redis/catalogue.conf. With REDIS_URL_FILE set (the Swarm stack, Kubernetes), Redis requires
# that URL's password: handed to it on its standard input (redis-server's `-`), so it is in no command line, no
# environment and no file of the image.
set -euo pipefail
if [ -z "${REDIS_URL_FILE:-}" ]; then exec redis-server /etc/redis/catalogue.conf; fi
# shellcheck source=deploy/redis/password.sh
source /etc/redis/password.sh
password=$(redis_password)
exec redis-server /etc/redis/catalogue.conf - < <(printf 'requirepass "%s"\n' "$password")
