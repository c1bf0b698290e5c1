#!/usr/bin/env bash
# Lints what deploy/ ships without running a container engine or Slurm:
#  - the container recipes (deploy/containers/Dockerfile, *.def) install packages only from
#    scripts/packages.txt: they go through scripts/install-deps.sh, and any package an
#    `apt-get install` line names must be in the list (a planted bad recipe proves the check);
#  - Debian 12 bases, the judge and agent targets, files they copy exist, binaries they copy are
#    CMake targets; hadolint when it is installed;
#  - each recipe's build copies every folder the top-level CMakeLists.txt adds (a planted
#    definition proves the check), and each role's image gets every program it runs, built;
#  - packages by role: scripts/packages.txt's tags are build, judge or agent, each role has the
#    packages it runs, and each image stage installs its role's lines (install-deps.sh --role);
#    a Dockerfile base given as ${ARG} defaults to debian:12;
#  - every shell script of deploy/, scripts/ and tests/ parses (bash -n); shellcheck when
#    installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
failures=0
fail() {
  echo "lint: FAIL: $*" >&2
  failures=$((failures + 1))
}

mapfile -t listed < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/packages.txt | grep -v '^$')
declare -A in_list=()
for p in "${listed[@]}"; do in_list[$p]=1; done

# The packages named by `apt-get install` / `apt install` commands of a recipe (continuation
# lines joined), one per line.
installed_packages() {
  sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1" | grep -E 'apt(-get)? +install' |
    sed -E 's/.*apt(-get)? +install//' | sed -E 's/(&&|;|\|).*//' | tr ' \t' '\n\n' |
    grep -Ev '^(-.*|)$' || true
}

# The packages a recipe installs that are not in the list, one per line.
unlisted_packages() {
  local pkg
  while IFS= read -r pkg; do
    [ -n "${in_list[$pkg]:-}" ] || echo "$pkg"
  done < <(installed_packages "$1")
}

targets=$(grep -rhoE 'add_executable\(([A-Za-z0-9_-]+)' --include=CMakeLists.txt . |
  sed 's/add_executable(//' | sort -u)

recipes=(deploy/containers/Dockerfile deploy/containers/judge.def deploy/containers/agent.def)
for r in "${recipes[@]}"; do
  [ -f "$r" ] || { fail "$r is missing"; continue; }
  grep -q 'scripts/install-deps.sh' "$r" || fail "$r does not install through scripts/install-deps.sh"
  grep -q 'scripts/packages.txt' "$r" || fail "$r does not bring scripts/packages.txt"
  for pkg in $(unlisted_packages "$r"); do
    fail "$r installs '$pkg', which is not in scripts/packages.txt"
  done
  for bin in $(grep -oE '/opt/hpcab/build/hpcab[A-Za-z0-9_-]*' "$r" | sort -u); do
    grep -qx "$(basename "$bin")" <<<"$targets" || fail "$r copies $bin, not a CMake target"
  done
done

# The check itself catches a package outside the list.
planted=$(mktemp)
trap 'rm -f "$planted"' EXIT
printf 'RUN apt-get update && apt-get install -y --no-install-recommends \\\n  cmake notapkg && true\n' >"$planted"
[ "$(unlisted_packages "$planted")" = notapkg ] ||
  fail "the package check missed 'notapkg' in a planted recipe"
[ "$(installed_packages "$planted" | tr '\n' ' ')" = "cmake notapkg " ] ||
  fail "the package check parsed the planted recipe as: $(installed_packages "$planted" | tr '\n' ' ')"

# Dockerfile: Debian 12 bases (or earlier stages), the two role targets, COPY sources exist. A
# base may be ${ARG} when the ARG's default, declared before the first FROM, is debian:12
# (scripts/make-images.sh passes its mmdebstrap-made bookworm base that way).
df=deploy/containers/Dockerfile
declare -A arg_default=()
while IFS='=' read -r name value; do arg_default[$name]=$value; done < <(
  awk '/^FROM / {exit} /^ARG [A-Za-z_]+=/ {print substr($0, 5)}' "$df")
stages=()
while read -r _ image _ stage; do
  if [[ $image =~ ^\$\{?([A-Za-z_]+)\}?$ ]]; then
    image=${arg_default[${BASH_REMATCH[1]}]:-"$image (no default before the first FROM)"}
  fi
  if [ "$image" != debian:12 ] && [[ ! " ${stages[*]} " == *" $image "* ]]; then
    fail "$df: FROM $image is neither debian:12 nor an earlier stage"
  fi
  stages+=("$stage")
done < <(grep -E '^FROM ' "$df")
for t in judge agent; do
  [[ " ${stages[*]} " == *" $t "* ]] || fail "$df has no '$t' target"
done
while read -r line; do
  read -r -a words <<<"$line"
  [[ "${words[1]}" == --from=* ]] && continue
  for src in "${words[@]:1:${#words[@]}-2}"; do
    [ -e "$src" ] || fail "$df copies $src, which is not in the repository"
  done
done < <(grep -E '^COPY ' "$df")

# Every folder the top-level CMakeLists.txt adds reaches each recipe's build (cmake would stop
# at the first one missing), and each role ships every program it runs: the judge also runs
# hpcab-runner and, for Python submissions and the NumPy/Numba baselines, hpcab-pyrunner.
mapfile -t folders < <(sed -nE 's/^[[:space:]]*add_subdirectory\(([A-Za-z0-9_/.-]+)\).*/\1/p' CMakeLists.txt |
  cut -d/ -f1 | sort -u)
[ "${#folders[@]}" -ge 5 ] || fail "found only ${#folders[@]} folders added by CMakeLists.txt: ${folders[*]}"
# The folders a recipe's build copies: `COPY x x` lines of a Dockerfile, the build stage's
# `%files` of an Apptainer definition; one per line.
copied_folders() {
  case $1 in
    *.def) awk '/^Stage: build/ {b = 1} /^Stage: final/ {b = 0} /^%files/ {f = b; next} /^%/ {f = 0}
                f && NF == 2 {print $1}' "$1" ;;
    *) sed -nE 's/^COPY ([^-][^ ]*) .*/\1/p' "$1" ;;
  esac
}
missing_folders() {
  local copied
  copied=$(copied_folders "$1")
  for d in "${folders[@]}"; do
    grep -qx "$d" <<<"$copied" || echo "$d"
  done
}
for r in "${recipes[@]}"; do
  for d in $(missing_folders "$r"); do fail "$r does not copy $d/, which CMakeLists.txt builds"; done
done
planted_def=$(mktemp --suffix=.def)
printf 'Bootstrap: docker\nFrom: debian:12\nStage: build\n\n%%files\n    common /opt/hpcab/common\n\n%%post\n    true\n' >"$planted_def"
grep -qx judge <<<"$(missing_folders "$planted_def")" ||
  fail "the folder check missed judge/ in a planted definition that copies only common/"
rm -f "$planted_def"
# Programs per role: built (a --target of the build) and shipped into the role's image.
# Checked on the recipes with their continuation lines joined.
joined() { sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1"; }
declare -A role_programs=([judge]="hpcab hpcab-judge hpcab-runner hpcab-pyrunner"
                          [agent]="hpcab hpcab-harness hpcab-tool")
for role in judge agent; do
  for bin in ${role_programs[$role]}; do
    joined "$df" | grep -qE -- "--target .*\b$bin\b( |$)" ||
      fail "$df does not build $bin (the $role role runs it)"
    joined "$df" | awk -v r="$role" '/^FROM / {s = $NF} s == r && /^COPY --from=build/' |
      grep -qE "/$bin( |$)" || fail "$df: the $role image lacks $bin"
    def=deploy/containers/$role.def
    grep -qE -- "--target .*\b$bin\b( |$)" "$def" || fail "$def does not build $bin"
    grep -qE "^[[:space:]]+/opt/hpcab/build/$bin /opt/hpcab/build/$bin$" "$def" ||
      fail "$def: the image lacks $bin"
  done
done

# Packages by role (scripts/packages.txt tags, scripts/install-deps.sh --role): every tag is a
# role; each role's image installs its role's lines only, its build stage the @build lines (the
# Dockerfile's deps-ROLE stages, the definitions' final %post), and each role gets what it runs.
for tag in $(grep -oE '#.*' scripts/packages.txt | grep -oE '(^|[[:space:]])@[A-Za-z0-9_-]+' | tr -d ' \t' | sort -u); do
  case $tag in @build|@judge|@agent) ;; *) fail "scripts/packages.txt: unknown role tag $tag (build, judge, agent)" ;; esac
done
declare -A role_packages=([build]="build-essential cmake ninja-build libseccomp-dev python3-dev"
  [judge]="gcc g++ gfortran bubblewrap python3 python3-numpy python3-numba libopenblas0-pthread libpython3.11"
  [agent]="gcc g++ gfortran python3")
for role in build judge agent; do
  chosen=" $(scripts/install-deps.sh --role "$role" --list | tr '\n' ' ') "
  for pkg in ${role_packages[$role]}; do
    [[ $chosen == *" $pkg "* ]] || fail "scripts/packages.txt: $pkg is not tagged @$role"
  done
done
[ "$(scripts/install-deps.sh --list | wc -l)" -eq "${#listed[@]}" ] ||
  fail "install-deps.sh --list (no role) does not list every package of scripts/packages.txt"
for stage in deps-build deps-judge deps-agent; do
  joined "$df" | awk -v s="$stage" '/^FROM / {in_s = ($NF == s)} in_s && /^RUN /' |
    grep -q "install-deps.sh --role ${stage#deps-} " || fail "$df: stage $stage does not install --role ${stage#deps-}"
done
for role in judge agent; do
  grep -qE "^FROM deps-$role AS $role\$" "$df" || fail "$df: the $role target is not built on deps-$role"
  def=deploy/containers/$role.def
  [ "$(grep -E '^[[:space:]]+/opt/hpcab/scripts/install-deps.sh' "$def" |
    grep -oE 'install-deps.sh( --role [a-z]+)?' | tr '\n' ' ')" = \
    "install-deps.sh --role build install-deps.sh --role $role " ] ||
    fail "$def: its stages do not install --role build, then --role $role"
done
# The agent (harness/arm.h) reads the arms' prompt fragments under the source dir.
grep -qE '^COPY deploy/arms /opt/hpcab/deploy/arms$' "$df" || fail "$df: the agent image lacks deploy/arms"
grep -qE '^[[:space:]]+/opt/hpcab/deploy/arms /opt/hpcab/deploy/arms$' deploy/containers/agent.def ||
  fail "deploy/containers/agent.def: the image lacks deploy/arms"

# Apptainer: Debian 12, the build stage's %files sources exist.
for def in deploy/containers/judge.def deploy/containers/agent.def; do
  grep -q '^Bootstrap: docker' "$def" || fail "$def: not bootstrapped from docker"
  [ -z "$(grep '^From:' "$def" | grep -v 'From: debian:12')" ] || fail "$def: a base is not debian:12"
  while read -r src; do
    [ -e "$src" ] || fail "$def copies $src, which is not in the repository"
  done < <(awk '/^%files$/ {f = 1; next} /^%/ {f = 0} f && NF == 2 {print $1}' "$def")
done

if command -v hadolint >/dev/null 2>&1; then
  hadolint "$df" || fail "hadolint $df"
else
  echo "lint: hadolint not installed; the Dockerfile is checked by this script only"
fi

# Shell scripts.
mapfile -t scripts < <(find deploy scripts tests -type f \( -name '*.sh' -o -name '*.sbatch' \) | sort)
for s in "${scripts[@]}"; do
  bash -n "$s" 2>/dev/null || fail "bash -n $s: $(bash -n "$s" 2>&1 | head -n 1)"
done
if command -v shellcheck >/dev/null 2>&1; then
  shellcheck -S warning "${scripts[@]}" || fail "shellcheck"
fi

if [ "$failures" -gt 0 ]; then
  echo "lint: $failures problem(s)" >&2
  exit 1
fi
echo "lint: ok: ${#recipes[@]} recipes (packages from scripts/packages.txt, Debian 12, judge and agent targets), ${#scripts[@]} shell scripts parse"
