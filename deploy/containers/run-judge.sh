#!/usr/bin/env bash
# Runs the judge from its image (make images) in the foreground, on the host's network, with a
# state directory of the host mounted at /var/lib/hpcab/judge. docs/deploy.md "Container images".
#
# Usage: deploy/containers/run-judge.sh [options] [-- hpcab-judge options...]
#   --image IMAGE     the judge image (default: var/images/hpcab-judge.image, written by
#                     make images, else localhost/hpcab-judge:latest)
#   --state-dir DIR   the judge's state on the host (required): database, key, build cache
#   --host ADDR       listen address (default 127.0.0.1)
#   --port N          listen port (default 8800)
#   --engine ENGINE   podman, unshare or auto (default auto: podman when it can start a
#                     container on this host, else unshare)
#   --check           say which engine auto picks, and why, then exit (0)
#   -h, --help        this text
#
# The judge gets HPCAB_IMAGE (the image's name) and HPCAB_IMAGE_DIGEST (its ID, sha256:..., from
# `buildah inspect`; the recipe cannot know its own digest) and reports them in GET /health as
# "image": {"name", "digest"}, so a result records the image that graded it.
#
# Engines. The judge's sandbox is bubblewrap, which needs to create user namespaces and to mount
# a fresh /proc inside the container; the kernel allows that mount only where the container's
# /proc is a full proc mount (no masked paths over it) and the container's root is its mount
# namespace's root (a chroot is refused: no `buildah run --isolation chroot`).
#  - podman: podman run --rm --network host --security-opt seccomp=unconfined
#    --security-opt apparmor=unconfined --security-opt systempaths=unconfined (unmasks /proc)
#    --cap-add SYS_NICE (the judge watches calls at real-time priority: docs/deploy.md).
#  - unshare: for hosts where crun cannot start containers (cgroup v1/v2 hybrid with a controller
#    on the unified hierarchy, or no cgroup delegation: crun refuses; podman and
#    `buildah run --isolation oci` then fail alike). The image's file system is mounted by
#    buildah (a working container, removed on exit), and util-linux's unshare gives the judge new
#    mount, PID, IPC and UTS namespaces in which the root is pivoted (pivot_root, not chroot) onto
#    it, with a fresh /proc and a read-only /sys, a minimal /dev, a tmpfs /tmp and the state
#    directory bound. The image's Env and WorkingDir apply; the network is the host's. This is a
#    minimal container runtime: no cgroup limits, no seccomp filter and all of root's
#    capabilities, like the judge run on the host as root (the sandbox inside still confines
#    each submission). Needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
say() { printf 'run-judge: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

image=""
state=""
host=127.0.0.1
port=8800
engine=auto
check=0
while [ $# -gt 0 ]; do
  case $1 in
    --image) [ $# -ge 2 ] || die "--image needs a value"; image=$2; shift 2 ;;
    --state-dir) [ $# -ge 2 ] || die "--state-dir needs a value"; state=$2; shift 2 ;;
    --host) [ $# -ge 2 ] || die "--host needs a value"; host=$2; shift 2 ;;
    --port) [ $# -ge 2 ] || die "--port needs a value"; port=$2; shift 2 ;;
    --engine) [ $# -ge 2 ] || die "--engine needs a value"; engine=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) die "unknown argument '$1' (see --help; judge options go after --)" ;;
  esac
done
case $engine in auto|podman|unshare) ;; *) die "--engine must be podman, unshare or auto" ;; esac
if [ -z "$image" ]; then
  image=$(cat "$root/var/images/hpcab-judge.image" 2>/dev/null || echo localhost/hpcab-judge:latest)
fi
command -v buildah >/dev/null 2>&1 || die "buildah not found (scripts/packages.txt)"
digest=$(buildah inspect --type image --format '{{.FromImageID}}' "$image" 2>/dev/null) ||
  die "no image $image in buildah's store: make images (or podman load -i var/images/hpcab-judge.tar)"
digest="sha256:$digest"

# The podman probe: start the image's shell with the options the judge runs with.
podman_opts=(--network host --security-opt seccomp=unconfined --security-opt apparmor=unconfined
  --security-opt systempaths=unconfined --cap-add SYS_NICE)
podman_works() {
  command -v podman >/dev/null 2>&1 || { why="podman not installed"; return 1; }
  if ! why=$(podman run --rm --pull never "${podman_opts[@]}" --entrypoint /bin/true "$image" 2>&1); then
    why="podman run fails here: $(tail -n 1 <<<"$why")"
    return 1
  fi
}
why=""
if [ "$engine" = auto ]; then
  if podman_works; then engine=podman; why="podman starts containers here"; else engine=unshare; fi
fi
if [ "$check" = 1 ]; then
  echo "$engine${why:+ ($why)}"
  exit 0
fi
[ -n "$state" ] || die "--state-dir is required (the judge's database and key live there)"
mkdir -p "$state"
state=$(cd "$state" && pwd)
[ "$(id -u)" -eq 0 ] || die "run as root (buildah's store; the unshare engine mounts)"
judge_args=(--host "$host" --port "$port" --state-dir /var/lib/hpcab/judge "$@")
say "$image ($digest) with $engine${why:+ ($why)}, state $state, http://$host:$port"

if [ "$engine" = podman ]; then
  exec podman run --rm --pull never "${podman_opts[@]}" -v "$state:/var/lib/hpcab/judge" \
    -e "HPCAB_IMAGE=$image" -e "HPCAB_IMAGE_DIGEST=$digest" \
    --entrypoint hpcab-judge "$image" "${judge_args[@]}"
fi

# unshare: a working container for the file system, removed (and unmounted) on exit.
ctr=$(buildah from --quiet --pull=never "$image")
child=""
# On exit: SIGTERM to the judge (unshare's child, which execs it), SIGKILL after 10 s (unshare's
# exit kills the namespace: --kill-child), then the working container.
cleanup() {
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    pkill -TERM -P "$child" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  buildah umount "$ctr" >/dev/null 2>&1 || true
  buildah rm "$ctr" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
rootfs=$(buildah mount "$ctr")
mapfile -t env < <(buildah inspect --type image --format '{{range .OCIv1.Config.Env}}{{println .}}{{end}}' "$image" | grep -v '^$')
workdir=$(buildah inspect --type image --format '{{.OCIv1.Config.WorkingDir}}' "$image")
env+=("HPCAB_IMAGE=$image" "HPCAB_IMAGE_DIGEST=$digest")

# In the new namespaces: the mounts, pivot_root onto the image, then exec the judge, which is
# PID 1 there (--fork's child). --kill-child: the namespace dies with unshare. The mounts vanish
# with the mount namespace; nothing is mounted on the host but buildah's working container.
# shellcheck disable=SC2016 # expanded by the inner bash
inner='set -euo pipefail
r=$1 state=$2 workdir=$3; shift 3
mount --bind "$r" "$r"
mount -t proc -o nosuid,nodev,noexec proc "$r/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$r/sys"
mount -t tmpfs -o nosuid,mode=1777 tmpfs "$r/tmp"
mount -t tmpfs -o nosuid,mode=755 tmpfs "$r/dev"
for d in null zero full random urandom tty; do
  touch "$r/dev/$d"; mount --bind "/dev/$d" "$r/dev/$d"
done
mkdir -p "$r/dev/shm" "$r/dev/pts"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs "$r/dev/shm"
ln -s /proc/self/fd "$r/dev/fd"; ln -s /proc/self/fd/0 "$r/dev/stdin"
ln -s /proc/self/fd/1 "$r/dev/stdout"; ln -s /proc/self/fd/2 "$r/dev/stderr"
mkdir -p "$r/var/lib/hpcab/judge"
mount --bind "$state" "$r/var/lib/hpcab/judge"
cd "$r"
pivot_root . .
umount -l .
cd "${workdir:-/}"
exec "$@"'
unshare --mount --pid --ipc --uts --fork --kill-child --propagation private \
  bash -c "$inner" run-judge "$rootfs" "$state" "$workdir" \
  /usr/bin/env -i "${env[@]}" hpcab-judge "${judge_args[@]}" &
child=$!
rc=0
wait "$child" || rc=$?
child=""
exit "$rc"
