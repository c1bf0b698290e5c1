#!/usr/bin/env bash
# `make run`: starts the judge on 127.0.0.1:8800 with its state under var/, runs the demo client
# (three kernels: the reference and a faster version each), then one harness arm with a built-in
# optimizer (deploy/arms/identity-demo.env; HPCAB_DEMO_ARM picks another) and prints its episode
# table, then keeps the judge up until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
port=${HPCAB_PORT:-8800}
if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
  echo "run: something already listens on 127.0.0.1:$port (another judge?). Stop it or set HPCAB_PORT." >&2
  exit 1
fi
mkdir -p var/shared
# --shared-dir/--input-mode any: the autopar built-ins submit prebuilt libraries from var/shared.
"$build/hpcab-judge" --host 127.0.0.1 --port "$port" --state-dir var --shared-dir var/shared \
  --input-mode any 2>var/judge.log &
judge=$!
trap 'kill -TERM $judge 2>/dev/null; wait $judge 2>/dev/null; exit 0' INT TERM
echo "judge: http://127.0.0.1:$port (log: var/judge.log, database: var/judge.db)"
"$build/hpcab" demo --judge "http://127.0.0.1:$port" || echo "demo: some submissions did not grade ok (see above)"

# The harness: one arm of built-in optimizer episodes against this judge. Its database and
# workspaces are demo artifacts, started afresh each time (a real arm resumes instead).
arm=${HPCAB_DEMO_ARM:-deploy/arms/identity-demo.env}
echo
echo "harness: $arm (database var/harness-demo.db, workspaces var/episodes/)"
rm -f var/harness-demo.db var/harness-demo.db-wal var/harness-demo.db-shm
rm -rf var/episodes/"$(sed -n 's/^NAME=//p' "$arm")"
"$build/hpcab-harness" run "$arm" --db var/harness-demo.db \
  --judge-urls "http://127.0.0.1:$port" || echo "harness: the arm did not complete (see above)"
"$build/hpcab-harness" status "$arm" --db var/harness-demo.db || true
if [ -n "${CI:-}" ] || [ -n "${HPCAB_RUN_ONCE:-}" ]; then
  kill -TERM $judge; wait $judge || true; exit 0
fi
echo "judge stays up; press Ctrl-C to stop it."
wait $judge
