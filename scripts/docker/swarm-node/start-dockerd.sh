#!/bin/bash
# Starts the node's Docker engine in the foreground (the container's main process, under docker run --init), with the
# flags given as arguments (the drill passes its address and --insecure-registry for its local registry). The node
# runs with every capability but SYS_RESOURCE (which these machines do not grant even to --privileged), no seccomp
# or AppArmor profile, /proc and /sys unmasked and a cgroup namespace of its own: what an engine needs, set up here.
set -euo pipefail
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  # cgroup v2: the engine's containers need a cgroup of their own beside this one's processes, and the controllers
  # delegated to them (what the docker:dind image's entrypoint does): move every process of this container into a
  # leaf group, then enable the controllers at the root of the container's cgroup namespace.
  mkdir -p /sys/fs/cgroup/init
  xargs -rn1 </sys/fs/cgroup/cgroup.procs >/sys/fs/cgroup/init/cgroup.procs 2>/dev/null || true
  sed -e 's/ / +/g' -e 's/^/+/' </sys/fs/cgroup/cgroup.controllers >/sys/fs/cgroup/cgroup.subtree_control
elif ! touch /sys/fs/cgroup/memory/.writable 2>/dev/null; then
  # cgroup v1, mounted read-only by Docker: mounted again, writable, each hierarchy the machine has (those it does
  # not mount itself cannot be mounted in a cgroup namespace, and the engine does without them).
  for mounted in /sys/fs/cgroup/*; do umount "$mounted"; done
  umount /sys/fs/cgroup
  mount -t tmpfs -o uid=0,gid=0,mode=0755 cgroup /sys/fs/cgroup
  for subsystem in $(awk '!/^#/ { if ($4 == 1) print $1 }' /proc/cgroups); do
    mkdir -p "/sys/fs/cgroup/$subsystem"
    mount -n -t cgroup -o "$subsystem" cgroup "/sys/fs/cgroup/$subsystem" 2>/dev/null || rmdir "/sys/fs/cgroup/$subsystem"
  done
  mkdir -p /sys/fs/cgroup/systemd
  mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd
fi
# Mounts made under the engine (its containers' volumes) must propagate.
mount --make-rshared /
# A node killed and started again (the drill does both) finds its engine's pid files from before; their pids may
# now be other processes of this container, and the engine would refuse to start "while one is running".
rm -f /var/run/docker.pid /var/run/docker/containerd/containerd.pid
exec dockerd --host=unix:///var/run/docker.sock "$@"
