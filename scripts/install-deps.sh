#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/packages.txt that are missing, then the npm
# packages of the test clients (tests/mcp-client) when node_modules is missing. Idempotent and
# silent when everything is present; uses sudo only when not root. Tests never download: this
# is the only place packages are fetched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
list="$here/packages.txt"

# npm ci from tests/mcp-client/package-lock.json (exact versions). A failure (no registry) is a
# warning: mcp_sdk_client then skips, or fails with CI=true.
npm_packages() {
  local dir="$root/tests/mcp-client"
  # A container recipe runs this script before it copies tests/: nothing to install then.
  [ -f "$dir/package-lock.json" ] || return 0
  [ -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-deps: npm not found; tests/mcp-client is not installed" >&2
    return 0
  fi
  echo "install-deps: npm ci --prefix tests/mcp-client"
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >/dev/null ||
    echo "install-deps: npm ci in tests/mcp-client failed; mcp_sdk_client will skip" >&2
}

# A package counts as present when it is installed or provided by an installed package
# (NodeSource's nodejs provides npm, and Debian's npm conflicts with it).
provided=" $(dpkg-query -W -f='${db:Status-Status}\t${Provides}\n' 2>/dev/null |
  awk -F'\t' '$1 == "installed" { print $2 }' | tr ',' '\n' |
  sed -e 's/(.*)//' -e 's/[[:space:]]//g' | { grep -v '^$' || true; } | tr '\n' ' ') " || true

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
npm_packages
