#!/bin/sh
# ctest mcp_sdk_client: tests/mcp-client/mcp_client_test.mjs against HPCAB_TOOL (the first
# argument). Needs node and the SDK that scripts/install-deps.sh installs (npm ci into
# tests/mcp-client/node_modules); nothing is downloaded here. Without them: skipped (exit 77)
# with the reason, except with CI=true, where that is a failure.
here=$(cd "$(dirname "$0")" && pwd)
tool=${1:?usage: run.sh HPCAB_TOOL}
skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "mcp_sdk_client: FAIL (CI=true): $1" >&2
    exit 1
  fi
  echo "mcp_sdk_client: SKIPPED: $1" >&2
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node is not installed (scripts/packages.txt: nodejs)"
[ -f "$here/node_modules/@modelcontextprotocol/sdk/package.json" ] ||
  skip "the MCP SDK is not installed in $here/node_modules (run scripts/install-deps.sh)"
exec node "$here/mcp_client_test.mjs" "$tool"
