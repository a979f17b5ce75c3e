#!/usr/bin/env bash
# Make sure the two base images the Dockerfiles start from exist in the local Docker daemon: `debian:bookworm-slim`
# (deploy/nginx, deploy/redis) and `node:<the pinned version>-bookworm-slim` (the app, as the Dockerfile's FROM names it).
#
# The Dockerfiles are written for the official images of those names. Where the Docker Hub is reachable we pull
# them. Where it is not (CI sandboxes with no container registry), we build stand-ins with the same names and the
# same shape: Debian bookworm (debootstrap, variant minbase) slimmed as debian:bookworm-slim is, and on top of it
# the project's pinned Node (node_modules/.bin/node, from the npm registry) under /usr/local like the official Node image, a `node` user with uid/gid 1000, no tini. Only
# for this machine: the Node stand-in gets the host's CA bundle and NODE_EXTRA_CA_CERTS pointing at it, because
# here TLS to the npm registry goes through an intercepting proxy whose CA the build must trust. That stays out of
# the published Dockerfile.
#
# The root filesystems are kept as tarballs under $CATALOGUE_DOCKER_CACHE (Node's keyed by its version), so a
# daemon with an empty image store (a fresh /var/lib/docker) re-imports them in seconds instead of rebuilding.
# Idempotent: does nothing for an image that already exists.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=.ci/docker/lib.sh
source "$here/lib.sh"

DEBIAN_IMAGE=debian:bookworm-slim
NODE_IMAGE=$NODE_BASE_IMAGE
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Try the real images first unless told not to; a registry that is absent fails in well under a second.
CATALOGUE_DOCKER_PULL=${CATALOGUE_DOCKER_PULL:-1}
# Bump ROOTFS_RECIPE whenever a recipe below changes, so cached tarballs of the old recipe are not reused.
ROOTFS_RECIPE=3
PATH_ENV='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

# present_or_pulled IMAGE: true when IMAGE is in the store, or could be pulled into it.
present_or_pulled() {
  if timeout 30 docker image inspect "$1" >/dev/null 2>&1; then
    log "base image $1 is present; nothing to do"
    return 0
  fi
  [ "$CATALOGUE_DOCKER_PULL" = 1 ] || return 1
  log "trying: docker pull $1"
  if timeout 300 docker pull "$1" >/dev/null 2>&1; then
    log "pulled the official $1"
    return 0
  fi
  log "no registry reachable; building a local stand-in for $1 instead"
  return 1
}

# import_rootfs TARBALL IMAGE CHANGE...: the tarball as the image IMAGE, with Dockerfile instructions CHANGE...
import_rootfs() {
  local tarball=$1 image=$2 started change changes=()
  shift 2
  started=$(now_ms)
  for change in "$@"; do changes+=(--change "$change"); done
  timeout 600 docker import "${changes[@]}" "$tarball" "$image" >/dev/null \
    || die "docker import of $tarball failed (delete it to force a rebuild)"
  log "imported $image in $(seconds_since "$started") s"
}

# --- the project's Node, whose libraries the Debian root filesystem must hold ---------------------------------
# The runtime the project pins (its platform package, docs/decisions/node-runtime.md), installed by `npm ci` into
# node_modules; the machine's own node only where that is missing and is already the same version (checked below).
project_node="$here/../../node_modules/.bin/node"
if [ -x "$project_node" ]; then
  node_bin=$(readlink -f "$project_node")
else
  node_bin=$(readlink -f "$(command -v node)") || die "node is not installed on this machine (run npm ci first)"
fi
node_version=$("$node_bin" --version)

# --- debian:bookworm-slim --------------------------------------------------------------------------------------
mkdir -p "$CATALOGUE_DOCKER_CACHE"
debian_tarball="$CATALOGUE_DOCKER_CACHE/debian-bookworm-slim-rootfs-r${ROOTFS_RECIPE}.tar.gz"

# debian_rootfs DIR: a slim Debian bookworm in DIR, as in debian:bookworm-slim.
debian_rootfs() {
  local rootfs=$1 include= lib pkg
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install -y debootstrap)"
  # Whatever Debian packages the host's node binary links against (libstdc++6, libgcc-s1, libc6, ...): minbase
  # has them already (apt needs them), --include makes it certain for the Node stand-in built on top.
  while read -r lib; do
    pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true)
    pkg=${pkg%%:*}
    [ -n "$pkg" ] && include="$include,$pkg"
  done < <(ldd "$node_bin" | awk '/=>/ { print $3 }')
  include=$(printf '%s' "${include#,}" | tr ',' '\n' | sort -u | paste -sd, -)

  log "debootstrap bookworm (minbase${include:+, include $include}) from $DEBIAN_MIRROR"
  if ! timeout 1200 debootstrap --variant=minbase ${include:+--include="$include"} \
      bookworm "$rootfs" "$DEBIAN_MIRROR" >"$rootfs.debootstrap.log" 2>&1; then
    tail -n 20 "$rootfs.debootstrap.log" >&2
    die "debootstrap failed (log above); is $DEBIAN_MIRROR reachable?"
  fi

  # Debian's slim images ship the same sources as Docker's debian:bookworm-slim: main, updates, security.
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # Slim like debian:bookworm-slim: no package lists or downloaded .debs, no docs/man pages/locales (copyright
  # files stay), and dpkg told not to install them again later.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/* "$rootfs"/tmp/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/locale/*
  find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  # The apt settings Docker's debian images ship, so `apt-get install` in a Dockerfile leaves no caches behind.
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
  echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
  # /etc/resolv.conf and /etc/hosts are provided by Docker at run time.
  : >"$rootfs/etc/resolv.conf"
  printf 'local stand-in for %s, built by .ci/docker/build-base-image.sh\n' "$DEBIAN_IMAGE" >"$rootfs/etc/catalogue-local-base-image"
}

# pack DIR TARBALL: the root filesystem in DIR as a gzipped tarball, written whole or not at all.
pack() {
  tar --numeric-owner -C "$1" -cf - . | gzip -1 >"$2.partial"
  mv "$2.partial" "$2"
  log "packed $2 ($(du -h "$2" | cut -f1))"
}

need_debian=0 need_node=0
present_or_pulled "$DEBIAN_IMAGE" || need_debian=1
present_or_pulled "$NODE_IMAGE" || need_node=1
[ $need_debian = 1 ] || [ $need_node = 1 ] || exit 0
node_tarball="$CATALOGUE_DOCKER_CACHE/node-${node_version}-bookworm-slim-rootfs-r${ROOTFS_RECIPE}.tar.gz"

# The root filesystems are only scratch space; never leave a half-built one behind.
work=$(mktemp -d "$CATALOGUE_DOCKER_CACHE/rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The Node stand-in is built on the Debian root filesystem, so that one is needed for either image.
if [ ! -s "$debian_tarball" ] && { [ $need_debian = 1 ] || [ ! -s "$node_tarball" ]; }; then
  started=$(now_ms)
  debian_rootfs "$work/debian"
  pack "$work/debian" "$debian_tarball"
  rm -rf "$work/debian"
  log "Debian root filesystem built in $(seconds_since "$started") s"
fi
if [ $need_debian = 1 ]; then import_rootfs "$debian_tarball" "$DEBIAN_IMAGE" "$PATH_ENV" 'CMD ["bash"]'; fi

# --- node:<version>-bookworm-slim: the Debian root filesystem and the project's Node ----------------------------
[ $need_node = 1 ] || exit 0
# A stand-in must hold the version its name promises.
node_tag=${NODE_IMAGE#node:}
[ "$node_version" = "v${node_tag%%-*}" ] \
  || die "the project's node is $node_version; a stand-in for $NODE_IMAGE needs Node ${node_tag%%-*} (run npm ci first)"

if [ ! -s "$node_tarball" ]; then
  started=$(now_ms)
  rootfs="$work/node"
  mkdir -p "$rootfs"
  tar --numeric-owner -C "$rootfs" -xzf "$debian_tarball"

  # npm's entry point is <prefix>/lib/node_modules/npm/bin/npm-cli.js; its package folder is two levels up.
  npm_cli=$(readlink -f "$(command -v npm)") || die "npm is not installed on this machine"
  npm_dir=$(dirname "$(dirname "$npm_cli")")
  [ -f "$npm_dir/package.json" ] || die "cannot find npm's package folder (looked at $npm_dir)"
  corepack_dir=$(dirname "$npm_dir")/corepack

  log "installing the project's Node $node_version under /usr/local, like the official image"
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  if [ -d "$corepack_dir" ]; then
    cp -a "$corepack_dir" "$rootfs/usr/local/lib/node_modules/corepack"
    ln -sf ../lib/node_modules/corepack/dist/corepack.js "$rootfs/usr/local/bin/corepack"
  fi

  # The official image's user: `groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash
  # --create-home node`.
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

  # Local-only trust: the host's CA bundle (it includes any intercepting proxy's CA).
  host_ca=${HOST_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
  if [ -s "$host_ca" ]; then
    install -D -m 0644 "$host_ca" "$rootfs/usr/local/share/catalogue-host-ca/ca-certificates.crt"
  fi
  rm -rf "$rootfs"/var/log/* "$rootfs"/tmp/*
  printf 'local stand-in for %s, built by .ci/docker/build-base-image.sh\n' "$NODE_IMAGE" >"$rootfs/etc/catalogue-local-base-image"

  # Prove the copied node runs inside this rootfs (catches a missing shared library now, not mid-build).
  env -i PATH=/usr/local/bin:/usr/bin:/bin /usr/sbin/chroot "$rootfs" /usr/local/bin/node -e 'process.exit(process.versions.node ? 0 : 1)' \
    || die "the copied node does not run inside the rootfs; check 'ldd $node_bin'"

  pack "$rootfs" "$node_tarball"
  log "Node root filesystem built in $(seconds_since "$started") s"
else
  log "reusing the cached rootfs $node_tarball"
fi

changes=("$PATH_ENV" "ENV NODE_VERSION=${node_version#v}" 'CMD ["node"]')
if tar -tzf "$node_tarball" ./usr/local/share/catalogue-host-ca/ca-certificates.crt >/dev/null 2>&1; then
  changes+=('ENV NODE_EXTRA_CA_CERTS=/usr/local/share/catalogue-host-ca/ca-certificates.crt')
fi
# A registry other than the public one configured on the host (a mirror) must be used inside the build too.
registry=$(npm config get registry 2>/dev/null || true)
if [ -n "$registry" ] && [ "$registry" != "https://registry.npmjs.org/" ]; then
  changes+=("ENV NPM_CONFIG_REGISTRY=$registry")
fi
import_rootfs "$node_tarball" "$NODE_IMAGE" "${changes[@]}"
