#!/usr/bin/env bash
# Builds the judge and agent OCI images (deploy/containers/Dockerfile) with Debian's buildah,
# from a Debian 12 base made by mmdebstrap from deb.debian.org: no image registry is needed.
# `make images` runs it; docs/deploy.md "Container images" is the manual.
#
# Usage: scripts/make-images.sh [options]
#   --role ROLE       judge, agent or all (default all); repeatable
#   --commit REV      build from that commit (git archive), not from the working tree: what a
#                     lab tags and reruns; the default tag is then REV's short hash
#   --tag TAG         image tag (default: the short commit, "-dirty" when the tree has changes)
#   --out DIR         where the OCI archives and digests go (default var/images)
#   --no-archive      build into buildah's store only, write no OCI archive
#   --isolation MODE  buildah's RUN isolation: oci or chroot (default: probed, see below)
#   --refresh-base    make the base tarball and image again (new Debian point updates)
#   -h, --help        this text
#
# What it leaves, per role: the image localhost/hpcab-ROLE:TAG (and :latest) in buildah's store
# (podman sees the same store when both run as the same user), OUT/hpcab-ROLE.tar (an OCI
# archive: `podman load -i`, `skopeo copy oci-archive:...`, `apptainer build x.sif
# oci-archive://...`) and OUT/hpcab-ROLE.digest (the image ID, sha256:..., which
# deploy/containers/run-judge.sh passes to the judge as HPCAB_IMAGE_DIGEST and the judge reports
# in GET /health). The ID is the digest of the image's configuration: `podman load` of the
# archive gives the same ID back, so a lab checks a rerun against it.
#
# Warm cache: OUT/cache/base-bookworm.tar (the mmdebstrap tarball, ~170 MB) and the image
# localhost/hpcab-base:bookworm are reused until --refresh-base; buildah's layer cache (--layers)
# reuses the deps stages while scripts/packages.txt and scripts/install-deps.sh are unchanged,
# and the build stage while no source changed. A second run with nothing changed takes seconds,
# plus the archive when the image changed.
#
# Isolation: buildah's default (oci) runs RUN steps with crun, which needs a cgroup hierarchy it
# can use; on a host without one (no cgroup delegation, or a cgroup v1/v2 hybrid with a
# controller on the unified hierarchy: crun refuses those) the RUN steps go through
# --isolation chroot instead. The script tries crun on the base image once and picks.
# Needs root (buildah's rootful store; rootless buildah needs subuids, not set up here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
say() { printf 'make-images: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

roles=()
tag=""
out=var/images
archive=1
isolation=${BUILDAH_ISOLATION:-}
refresh_base=0
commit=""
while [ $# -gt 0 ]; do
  case $1 in
    --role) [ $# -ge 2 ] || die "--role needs a value"; roles+=("$2"); shift 2 ;;
    --tag) [ $# -ge 2 ] || die "--tag needs a value"; tag=$2; shift 2 ;;
    --commit) [ $# -ge 2 ] || die "--commit needs a value"; commit=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --no-archive) archive=0; shift ;;
    --isolation) [ $# -ge 2 ] || die "--isolation needs a value"; isolation=$2; shift 2 ;;
    --refresh-base) refresh_base=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ ${#roles[@]} -gt 0 ] || roles=(all)
want=()
for r in "${roles[@]}"; do
  case $r in
    all) want+=(judge agent) ;;
    judge|agent) want+=("$r") ;;
    *) die "unknown role '$r' (judge, agent or all)" ;;
  esac
done
mapfile -t want < <(printf '%s\n' "${want[@]}" | awk '!seen[$0]++')
case $isolation in ""|oci|chroot) ;; *) die "--isolation must be oci or chroot, not '$isolation'" ;; esac
if [ -n "$commit" ]; then
  rev=$(git rev-parse --verify --quiet "$commit^{commit}") || die "--commit $commit is not a commit"
  [ -n "$tag" ] || tag=$(git rev-parse --short=12 "$rev")
elif [ -z "$tag" ]; then
  tag=$(git rev-parse --short=12 HEAD 2>/dev/null || echo dev)
  [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || tag="$tag-dirty"
fi

[ "$(id -u)" -eq 0 ] || die "run as root (buildah's rootful store); rootless buildah needs /etc/subuid"
for tool in buildah mmdebstrap; do
  command -v "$tool" >/dev/null 2>&1 ||
    die "$tool not found: install it with scripts/install-deps.sh (it is in scripts/packages.txt)"
done

base_image=localhost/hpcab-base:bookworm
cache="$out/cache"
mkdir -p "$cache"
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

# Working containers this script made, and the --commit context, removed on any exit.
containers=()
context=.
cleanup() {
  local c
  for c in "${containers[@]}"; do buildah rm "$c" >/dev/null 2>&1 || true; done
  [ "$context" = . ] || rm -rf "$context"
}
trap cleanup EXIT

# The base: a bookworm minbase from Debian's mirror (main, updates, security). Documentation,
# man pages and translations are left out by dpkg path excludes, which mmdebstrap also writes
# into the base's /etc/dpkg/dpkg.cfg.d, so the images' own installs leave them out too.
base_opts=(--variant=minbase --aptopt='Acquire::Retries "3"'
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias')
mirrors=("deb http://deb.debian.org/debian bookworm main"
  "deb http://deb.debian.org/debian bookworm-updates main"
  "deb http://deb.debian.org/debian-security bookworm-security main")
base_tar="$cache/base-bookworm.tar"
base_key=$(printf '%s\n' "${base_opts[@]}" "${mirrors[@]}" | sha256sum | cut -c1-16)
have_base_image() { buildah inspect --type image "$base_image" >/dev/null 2>&1; }
if [ "$refresh_base" = 1 ] || [ ! -s "$base_tar" ] || [ "$(cat "$base_tar.key" 2>/dev/null)" != "$base_key" ]; then
  say "base: mmdebstrap bookworm minbase from deb.debian.org -> $base_tar"
  t=$(date +%s)
  rm -f "$base_tar" "$base_tar.key"
  # mmdebstrap picks its output format by the name's extension: .tar.
  mmdebstrap --quiet "${base_opts[@]}" bookworm "$cache/base-bookworm.part.tar" "${mirrors[@]}" ||
    die "mmdebstrap failed (is http://deb.debian.org reachable?)"
  mv "$cache/base-bookworm.part.tar" "$base_tar"
  echo "$base_key" >"$base_tar.key"
  say "base: tarball $(du -h "$base_tar" | cut -f1) in $(elapsed "$t")"
  have_base_image && buildah rmi "$base_image" >/dev/null 2>&1 || true
fi
if ! have_base_image; then
  say "base: importing $base_tar as $base_image"
  c=$(buildah from --quiet scratch)
  containers+=("$c")
  buildah add --quiet "$c" "$base_tar" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --cmd /bin/bash --label org.opencontainers.image.title=hpcab-base \
    --label "org.opencontainers.image.description=Debian bookworm minbase (mmdebstrap, deb.debian.org)" "$c"
  # A fixed timestamp: the base's ID depends on the tarball only, so a re-import keeps the
  # layer cache of the stages above it.
  buildah commit --quiet --timestamp 0 "$c" "$base_image" >/dev/null
  buildah rm "$c" >/dev/null
  containers=()
fi

# Isolation: crun when it can start a container here, else chroot.
if [ -z "$isolation" ]; then
  c=$(buildah from --quiet --pull=never "$base_image")
  containers+=("$c")
  if probe=$(buildah run --isolation oci "$c" true 2>&1); then
    isolation=oci
  else
    isolation=chroot
    say "isolation: chroot (crun cannot start a container here: $({ grep -m1 crun <<<"$probe" || tail -n 1 <<<"$probe"; } | tr -d '\r'))"
  fi
  buildah rm "$c" >/dev/null
  containers=()
fi

ignore=deploy/containers/Dockerfile.dockerignore
if [ -n "$commit" ]; then
  context=$(mktemp -d "${TMPDIR:-/tmp}/hpcab-images.XXXXXX")
  git archive "$rev" | tar -x -C "$context"
  say "context: commit $rev (git archive)"
fi
for role in "${want[@]}"; do
  image="localhost/hpcab-$role:$tag"
  say "$role: buildah build --target $role ($isolation isolation) -> $image"
  t=$(date +%s)
  buildah build --layers --pull=never --isolation "$isolation" --ignorefile "$context/$ignore" \
    -f "$context/deploy/containers/Dockerfile" --target "$role" --build-arg "BASE=$base_image" \
    -t "$image" -t "localhost/hpcab-$role:latest" "$context" 2>&1 |
    sed -u "s/^/  [$role] /" >&2 || die "buildah build of the $role image failed (output above)"
  id="sha256:$(buildah inspect --type image --format '{{.FromImageID}}' "$image")"
  say "$role: built in $(elapsed "$t"): $id"

  # Every program of the role starts and finds its libraries (a missing runtime package in
  # scripts/packages.txt shows here, not on a cluster).
  c=$(buildah from --quiet --pull=never "$image")
  containers+=("$c")
  case $role in
    judge) programs="hpcab hpcab-judge hpcab-runner hpcab-pyrunner" ;;
    agent) programs="hpcab hpcab-harness hpcab-tool" ;;
  esac
  # shellcheck disable=SC2016,SC2086 # $@ is expanded inside; $programs splits into words
  buildah run --isolation chroot "$c" sh -c '
    cd /opt/hpcab/build
    for p in "$@"; do
      if ldd "$p" | grep "not found"; then echo "$p: missing libraries" >&2; exit 1; fi
    done
    for p in hpcab-judge hpcab-harness hpcab-tool hpcab; do
      [ ! -x "$p" ] || ./"$p" --help >/dev/null || { echo "$p --help failed" >&2; exit 1; }
    done' sh $programs || die "the $role image's programs do not start (above)"
  buildah rm "$c" >/dev/null
  containers=()
  size=$(buildah images --format '{{.Size}}' "$image" | head -n 1)

  if [ "$archive" = 1 ]; then
    mkdir -p "$out"
    tar="$out/hpcab-$role.tar"
    if [ -s "$tar" ] && [ "$(cat "$out/hpcab-$role.digest" 2>/dev/null)" = "$id" ]; then
      say "$role: $tar is this image already"
    else
      t=$(date +%s)
      rm -f "$tar" "$out/hpcab-$role.digest"
      buildah push --quiet "$image" "oci-archive:$tar.part:$image" ||
        die "buildah push to $tar failed"
      mv "$tar.part" "$tar"
      say "$role: $tar ($(du -h "$tar" | cut -f1)) in $(elapsed "$t")"
    fi
  fi
  mkdir -p "$out"
  echo "$id" >"$out/hpcab-$role.digest"
  echo "$image" >"$out/hpcab-$role.image"
  say "$role: $image $id, $size"
done
say "done in $(elapsed "$started")"
