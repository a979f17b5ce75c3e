#!/bin/bash
# Prints the nginx map of the origins CORS_ORIGINS lists (docs/scaling.md), for nginx.conf's cache key: run when
# the container starts, with the replicas' CORS_ORIGINS, and by the tests and the bench. bash, not Node: the nginx
# image has no Node runtime.
#
#   CORS_ORIGINS=https://a.example,https://b.example bash cors-origins.sh >/etc/nginx/catalogue-cors-origins.conf
#
# A listed origin maps to itself, written as browsers send `Origin` and as the app compares it (the app's
# `new URL(…).origin`: scheme and host in lower case, no default port, no path or user). Anything else, and every
# origin with `*` (unset or empty included), maps to "": the app answers those all alike. A host that is not
# ASCII must be written as browsers send it, in punycode (xn--…).
set -euo pipefail

trim() {
  local value=$1
  value=${value#"${value%%[![:space:]]*}"}
  printf '%s' "${value%"${value##*[![:space:]]}"}"
}

# origin_of ENTRY: the entry's origin as browsers write it, or nothing when it is not an http(s) URL.
origin_of() {
  local scheme rest authority host port
  [[ $1 =~ ^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*) ]] || return 0
  scheme=${BASH_REMATCH[1],,}
  authority=${BASH_REMATCH[2]##*@}
  if [[ $authority =~ ^(\[[^]]*\])(:([0-9]*))?$ || $authority =~ ^([^:]*)(:([0-9]*))?$ ]]; then
    host=${BASH_REMATCH[1],,} port=${BASH_REMATCH[3]}
  else
    return 0
  fi
  # A port is written without leading zeros, and not at all when it is the scheme's own.
  if [ -n "$port" ]; then port=$((10#$port)); fi
  if [[ ($scheme == http && $port == 80) || ($scheme == https && $port == 443) ]]; then port=; fi
  printf '%s://%s%s' "$scheme" "$host" "${port:+:$port}"
}

# What an http(s) origin may hold (`]` first and `[` anywhere: how a bracket expression lists them).
ORIGIN='^https?://[][a-z0-9.:-]+$'
value=$(trim "${CORS_ORIGINS:-}")
origins=()
if [ -n "$value" ] && [ "$value" != '*' ]; then
  IFS=, read -r -a entries <<<"$value,"
  for entry in "${entries[@]}"; do
    entry=$(trim "$entry")
    origin=$(origin_of "$entry")
    # Only what an http(s) origin can hold reaches nginx's configuration: no quote, space or semicolon.
    if ! [[ $origin =~ $ORIGIN ]]; then
      printf 'CORS_ORIGINS: "%s" is not an http(s) origin such as https://app.example.com\n' "$entry" >&2
      exit 1
    fi
    case " ${origins[*]} " in *" $origin "*) ;; *) origins+=("$origin") ;; esac
  done
fi

printf 'map $http_origin $catalogue_origin {\n    default "";\n'
for origin in "${origins[@]}"; do printf '    "%s" "%s";\n' "$origin" "$origin"; done
printf '}\n'
