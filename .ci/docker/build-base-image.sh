#!/usr/bin/env bash
# Make sure an image tagged `node:20-bookworm-slim` exists in the local Docker daemon.
#
# The Dockerfile is written for the official image of that name. Where the Docker Hub is reachable we pull it.
# Where it is not (CI sandboxes with no container registry), we build a stand-in with the same name and the
# same shape: Debian bookworm (debootstrap, variant minbase), the host's Node 20 under /usr/local like the
# official image, a `node` user with uid/gid 1000, no tini, and an empty apt list cache. Only for this machine:
# the host's CA bundle is added and NODE_EXTRA_CA_CERTS points at it, because here TLS to the npm registry goes
# through an intercepting proxy whose CA the build must trust. That stays out of the published Dockerfile.
#
# The root filesystem is kept as a tarball under $CATALOGUE_DOCKER_CACHE, keyed by the Node version, so a
# daemon with an empty image store (a fresh /var/lib/docker) re-imports it in seconds instead of rebuilding.
# Idempotent: does nothing when the image already exists.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=.ci/docker/lib.sh
source "$here/lib.sh"

BASE_IMAGE=${BASE_IMAGE:-node:20-bookworm-slim}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Try the real image first unless told not to; a registry that is absent fails in well under a second.
CATALOGUE_DOCKER_PULL=${CATALOGUE_DOCKER_PULL:-1}

if timeout 30 docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  log "base image $BASE_IMAGE is present; nothing to do"
  exit 0
fi

if [ "$CATALOGUE_DOCKER_PULL" = 1 ]; then
  log "trying: docker pull $BASE_IMAGE"
  if timeout 300 docker pull "$BASE_IMAGE" >/dev/null 2>&1; then
    log "pulled the official $BASE_IMAGE"
    exit 0
  fi
  log "no registry reachable; building a local stand-in for $BASE_IMAGE instead"
fi

# --- the host's Node, copied into the image -------------------------------------------------------------------
node_bin=$(readlink -f "$(command -v node)") || die "node is not installed on this machine"
node_version=$("$node_bin" --version)
case "$node_version" in
  v20.*) ;;
  *) die "the host's node is $node_version; a stand-in for $BASE_IMAGE needs Node 20" ;;
esac
# npm's entry point is <prefix>/lib/node_modules/npm/bin/npm-cli.js; its package folder is two levels up.
npm_cli=$(readlink -f "$(command -v npm)") || die "npm is not installed on this machine"
npm_dir=$(dirname "$(dirname "$npm_cli")")
[ -f "$npm_dir/package.json" ] || die "cannot find npm's package folder (looked at $npm_dir)"
corepack_dir=$(dirname "$npm_dir")/corepack

mkdir -p "$CATALOGUE_DOCKER_CACHE"
# Bump ROOTFS_RECIPE whenever the recipe below changes, so cached tarballs of the old recipe are not reused.
ROOTFS_RECIPE=2
tarball="$CATALOGUE_DOCKER_CACHE/node-${node_version}-bookworm-slim-rootfs-r${ROOTFS_RECIPE}.tar.gz"

if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install -y debootstrap)"
  started=$(now_ms)
  work=$(mktemp -d "$CATALOGUE_DOCKER_CACHE/rootfs.XXXXXX")
  # The rootfs is only scratch space; never leave a half-built one behind.
  trap 'rm -rf "$work"' EXIT
  rootfs="$work/rootfs"

  # Whatever Debian packages the host's node binary links against (libstdc++6, libgcc-s1, libc6, ...), so the
  # copied binary finds its shared libraries. minbase has most of them already; --include makes it certain.
  include=
  while read -r lib; do
    pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true)
    pkg=${pkg%%:*}
    [ -n "$pkg" ] && include="$include,$pkg"
  done < <(ldd "$node_bin" | awk '/=>/ { print $3 }')
  include=$(printf '%s' "${include#,}" | tr ',' '\n' | sort -u | paste -sd, -)

  log "debootstrap bookworm (minbase${include:+, include $include}) from $DEBIAN_MIRROR"
  if ! timeout 1200 debootstrap --variant=minbase ${include:+--include="$include"} \
      bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    die "debootstrap failed (log above); is $DEBIAN_MIRROR reachable?"
  fi

  log "installing the host's Node $node_version under /usr/local, like the official image"
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
  printf 'local stand-in for %s, built by .ci/docker/build-base-image.sh\n' "$BASE_IMAGE" \
    >"$rootfs/etc/catalogue-local-base-image"

  # Prove the copied node runs inside this rootfs (catches a missing shared library now, not mid-build).
  env -i PATH=/usr/local/bin:/usr/bin:/bin /usr/sbin/chroot "$rootfs" /usr/local/bin/node -e 'process.exit(process.versions.node ? 0 : 1)' \
    || die "the copied node does not run inside the rootfs; check 'ldd $node_bin'"

  log "packing the rootfs into $tarball"
  tar --numeric-owner -C "$rootfs" -cf - . | gzip -1 >"$tarball.partial"
  mv "$tarball.partial" "$tarball"
  log "rootfs built in $(seconds_since "$started") s ($(du -h "$tarball" | cut -f1) compressed)"
else
  log "reusing the cached rootfs $tarball"
fi

started=$(now_ms)
changes=(
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  --change "ENV NODE_VERSION=${node_version#v}"
  --change 'CMD ["node"]'
)
if tar -tzf "$tarball" ./usr/local/share/catalogue-host-ca/ca-certificates.crt >/dev/null 2>&1; then
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/catalogue-host-ca/ca-certificates.crt')
fi
# A registry other than the public one configured on the host (a mirror) must be used inside the build too.
registry=$(npm config get registry 2>/dev/null || true)
if [ -n "$registry" ] && [ "$registry" != "https://registry.npmjs.org/" ]; then
  changes+=(--change "ENV NPM_CONFIG_REGISTRY=$registry")
fi
timeout 600 docker import "${changes[@]}" "$tarball" "$BASE_IMAGE" >/dev/null \
  || die "docker import of $tarball failed (delete it to force a rebuild)"
log "imported $BASE_IMAGE in $(seconds_since "$started") s"
