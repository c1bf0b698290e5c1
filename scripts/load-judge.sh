#!/usr/bin/env bash
# Bounded load test of a private judge: starts hpcab-judge on a free port with its
# state in a temporary directory, runs build/hpcab-load against it (LOAD_CLIENTS clients for
# LOAD_DURATION seconds, mixed /health /task /score), prints the figures and stops the judge.
# Exit status: hpcab-load's (non-zero on any 5xx, lost grade, transport error or unexpected 4xx),
# or 1 when the judge cannot start or does not stop cleanly.
# Used by `make bench` (30 s) and by the ctest load_short (10 s).
# Environment: BUILD_DIR (default build), LOAD_CLIENTS (64), LOAD_DURATION (30),
# LOAD_MIX (health:task:score weights, 8:4:1), LOAD_OUT (JSON report path, optional),
# LOAD_QUEUE_DEPTH (the judge's queue_depth, 8).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
judge_bin=$build/hpcab-judge
load_bin=$build/hpcab-load
clients=${LOAD_CLIENTS:-64}
duration=${LOAD_DURATION:-30}
mix=${LOAD_MIX:-8:4:1}
queue_depth=${LOAD_QUEUE_DEPTH:-8}

for f in "$judge_bin" "$load_bin" "$root/tests/solutions/tsvc_2_s000.c"; do
  [ -e "$f" ] || { echo "load-judge: missing $f (run make build first)" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpcab-load-judge.XXXXXX")
chmod 711 "$tmp"  # the sandbox uid must traverse it to reach the scratch dir when run as root
judge_pid=
stop_judge() {  # SIGTERM the judge's process group, then SIGKILL what is left after 60 s
  [ -n "$judge_pid" ] || return 0
  local rc=0
  kill -TERM -- "-$judge_pid" 2>/dev/null || true
  for _ in $(seq 600); do kill -0 "$judge_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$judge_pid" 2>/dev/null; then
    echo "load-judge: the judge did not stop within 60 s; killing it" >&2
    kill -KILL -- "-$judge_pid" 2>/dev/null || true
    rc=1
  fi
  wait "$judge_pid" 2>/dev/null || rc=$?
  judge_pid=
  return "$rc"
}
cleanup() {
  local rc=$?
  stop_judge || true
  if [ "$rc" -ne 0 ] && [ -s "$tmp/judge.log" ]; then
    echo "load-judge: last judge log lines:" >&2
    tail -n 20 "$tmp/judge.log" >&2 || true
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Small grades (5 timed calls) and a short queue: beyond it the judge sheds load with 429 +
# Retry-After, which the clients honour; nothing may fail.
cat >"$tmp/judge.json" <<JSON
{"timed_calls": 5, "queue_depth": $queue_depth, "call_timeout_s": 60}
JSON
setsid "$judge_bin" --config "$tmp/judge.json" --port 0 --state-dir "$tmp/state" \
  --scratch-dir "$tmp/scratch" >"$tmp/judge.out" 2>"$tmp/judge.log" &
judge_pid=$!
url=
for _ in $(seq 600); do  # up to 60 s on a loaded machine
  if IFS= read -r line <"$tmp/judge.out" 2>/dev/null && [ -n "$line" ]; then
    url=${line#listening on }
    break
  fi
  kill -0 "$judge_pid" 2>/dev/null || { echo "load-judge: the judge exited during startup" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "load-judge: the judge did not report its address within 60 s" >&2; exit 1; }
echo "== load: private judge at $url (queue_depth $queue_depth, timed_calls 5)"

rc=0
"$load_bin" --url "$url" --clients "$clients" --duration "$duration" --mix "$mix" \
  --kernel tsvc_2_s000 --source-dir "$root/tests/solutions" ${LOAD_OUT:+--out "$LOAD_OUT"} || rc=$?
if ! stop_judge; then
  echo "load-judge: the judge did not shut down cleanly" >&2
  [ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"
