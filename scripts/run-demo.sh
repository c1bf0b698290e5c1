#!/usr/bin/env bash
# `make run`: starts the judge on 127.0.0.1:8800 with its state under var/, runs the demo client
# (three kernels: the reference and a faster version each), then keeps the judge up until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
port=${HPCAB_PORT:-8800}
if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
  echo "run: something already listens on 127.0.0.1:$port (another judge?). Stop it or set HPCAB_PORT." >&2
  exit 1
fi
mkdir -p var
"$build/hpcab-judge" --host 127.0.0.1 --port "$port" --state-dir var 2>var/judge.log &
judge=$!
trap 'kill -TERM $judge 2>/dev/null; wait $judge 2>/dev/null; exit 0' INT TERM
echo "judge: http://127.0.0.1:$port (log: var/judge.log, database: var/judge.db)"
"$build/hpcab" demo --judge "http://127.0.0.1:$port" || echo "demo: some submissions did not grade ok (see above)"
if [ -n "${CI:-}" ] || [ -n "${HPCAB_RUN_ONCE:-}" ]; then
  kill -TERM $judge; wait $judge || true; exit 0
fi
echo "judge stays up; press Ctrl-C to stop it."
wait $judge
