#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/packages.txt that are missing, then the npm
# packages of the test clients (tests/mcp-client, tests/agent-clients) when node_modules is
# missing. Idempotent and
# silent when everything is present; uses sudo only when not root. Tests never download: this
# is the only place packages are fetched.
# CUDA=1 (make deps CUDA=1): also Debian's CUDA toolkit (nvidia-cuda-toolkit, in the contrib
# and non-free components, which are enabled for it: about 5 GB installed), so the CUDA build
# tests run instead of skipping. A machine with NVIDIA's own CUDA under /usr/local/cuda needs
# none of it: the judge finds /usr/local/cuda/bin/nvcc itself.
#
# Usage: install-deps.sh [--role ROLE[,ROLE...]]... [--list]
#   --role ROLE  only the packages tagged @ROLE in packages.txt (build, judge, agent: the
#                container images' stages, deploy/containers/); no npm packages then. Without
#                --role every listed package (make, CI).
#   --list       print the chosen packages, one a line, and install nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
list="$here/packages.txt"

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
roles=()
list_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --role) [ $# -ge 2 ] || { echo "install-deps: --role needs a value" >&2; exit 2; }
            IFS=, read -r -a more <<<"$2"; roles+=("${more[@]}"); shift 2 ;;
    --role=*) IFS=, read -r -a more <<<"${1#--role=}"; roles+=("${more[@]}"); shift ;;
    --list) list_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-deps: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for r in "${roles[@]}"; do
  case $r in build|judge|agent) ;; *) echo "install-deps: unknown role '$r' (build, judge, agent)" >&2; exit 2 ;; esac
done

# npm ci from each test client's package-lock.json (exact versions) when its node_modules is
# missing: tests/mcp-client (the official MCP SDK: mcp_sdk_client) and tests/agent-clients
# (Claude Code, Codex and the openai and @anthropic-ai/sdk SDKs, about 900 MB:
# agent_clients_tests). A failure (no registry) is a warning: those tests then skip, or fail
# with CI=true.
npm_client() {
  local dir="$root/tests/$1" marker="$2" tests="$3"
  # A container recipe runs this script before it copies tests/: nothing to install then.
  [ -f "$dir/package-lock.json" ] || return 0
  [ -f "$dir/node_modules/$marker" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-deps: npm not found; tests/$1 is not installed" >&2
    return 0
  fi
  echo "install-deps: npm ci --prefix tests/$1"
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >/dev/null ||
    echo "install-deps: npm ci in tests/$1 failed; $tests will skip" >&2
}
# npm_client's markers: npm writes node_modules/.package-lock.json when an install has finished.

# A package counts as present when it is installed or provided by an installed package
# (NodeSource's nodejs provides npm, and Debian's npm conflicts with it).
provided=" $(dpkg-query -W -f='${db:Status-Status}\t${Provides}\n' 2>/dev/null |
  awk -F'\t' '$1 == "installed" { print $2 }' | tr ',' '\n' |
  sed -e 's/(.*)//' -e 's/[[:space:]]//g' | { grep -v '^$' || true; } | tr '\n' ' ') " || true

# The packages of the list, or of the lines whose comment carries one of the roles' tags.
if [ ${#roles[@]} -eq 0 ]; then
  mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
else
  mapfile -t wanted < <(awk -v roles=" ${roles[*]} " '
    { line = $0; pkg = line; sub(/#.*/, "", pkg); gsub(/[[:space:]]/, "", pkg)
      if (pkg == "" || index(line, "#") == 0) next
      n = split(substr(line, index(line, "#") + 1), w, /[^A-Za-z0-9@_-]+/)
      for (i = 1; i <= n; i++)
        if (w[i] ~ /^@/ && index(roles, " " substr(w[i], 2) " ")) { print pkg; next } }' "$list")
fi
if [ "$list_only" = 1 ]; then
  printf '%s\n' "${wanted[@]}"
  exit 0
fi
# The container images' stages (--role) have no test clients to install.
npm_packages() {
  [ ${#roles[@]} -eq 0 ] || return 0
  npm_client mcp-client @modelcontextprotocol/sdk/package.json mcp_sdk_client
  npm_client agent-clients .package-lock.json agent_clients_tests
}
cuda_wanted=0
if [ "${CUDA:-0}" = "1" ]; then
  wanted+=(nvidia-cuda-toolkit)
  cuda_wanted=1
fi
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "installed" ] && continue
  case "$provided" in *" $pkg "*) continue ;; esac
  missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  npm_packages
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing packages (${missing[*]}) and no apt-get; install them by hand." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if [ "$cuda_wanted" = 1 ]; then
  # nvidia-cuda-toolkit lives in contrib and non-free: add them to every Debian source that
  # lists only main (deb822 .sources files and one-line sources.list entries alike).
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    $sudo sed -i -E '/^Components:/{/contrib/!s/$/ contrib/;/non-free([^-]|$)/!s/$/ non-free/}' "$f"
  done
  if [ -f /etc/apt/sources.list ]; then
    $sudo sed -i -E '/^deb .*debian/{/contrib/!s/$/ contrib/;/ non-free( |$)/!s/$/ non-free/}' \
      /etc/apt/sources.list
  fi
fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
npm_packages
