# Sourced by start.sh and health.sh: the password Redis requires, taken from the replicas' own secret, the URL in the
# file REDIS_URL_FILE names (docs/scaling.md, "Secrets"), so one secret holds it for both sides. Never printed in a
# message: an error names the variable and the file only.

# redis_password: prints the password of the URL in $REDIS_URL_FILE (redis://:PASSWORD@host:port), or says why not
# on stderr and fails.
redis_password() {
  local url userinfo password
  if ! { url=$(<"$REDIS_URL_FILE"); } 2>/dev/null; then
    echo "REDIS_URL_FILE: cannot read \"$REDIS_URL_FILE\"" >&2
    return 1
  fi
  url=${url%$'\n'}
  url=${url%$'\r'}
  userinfo=${url#*://}
  userinfo=${userinfo%%@*}
  password=${userinfo#*:}
  # Letters, digits and -._~ only: such a password needs no escaping in the URL nor in Redis's configuration.
  if [[ $url != redis*://*:*@* || ! $password =~ ^[A-Za-z0-9._~-]{16,}$ ]]; then
    echo "REDIS_URL_FILE: \"$REDIS_URL_FILE\" must hold redis://:PASSWORD@host:port with a password of at least 16 letters, digits, '-', '.', '_' or '~' (such as: openssl rand -hex 32); its value is not shown" >&2
    return 1
  fi
  printf '%s' "$password"
}
