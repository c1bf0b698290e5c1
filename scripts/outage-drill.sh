#!/usr/bin/env bash
# The outage drill: an `identity` arm (resubmit each kernel's reference) against a
# private judge; DRILL_KILL_AFTER_S into the arm the judge is killed with SIGKILL, and
# DRILL_DOWN_S later it is started again on the same port and state dir, as an operator (or a
# Slurm requeue) would. Prints episodes finished and lost, submissions graded twice, and the
# success rate of `hpcab report summary`; expected: every episode graded, none twice, 100%.
# Exit status: 0 when those hold, 1 when one does not (or the kill came after the arm ended, so
# nothing was drilled), 2 on a setup failure.
#
# Used by `make bench`. Environment (defaults in parentheses):
#   BUILD_DIR (build), DRILL_KERNELS (all: the whole corpus), DRILL_REPETITIONS (2),
#   DRILL_WORKERS (8), DRILL_KILL_AFTER_S (45), DRILL_DOWN_S (10), DRILL_OUTAGE_WAIT_S (600, the
#   arm's OUTAGE_WAIT_S), DRILL_JUDGE_CONFIG (a judge config file; default: small grades, see
#   below), DRILL_KEEP (1: keep the drill's folder and print it).
# A short run: DRILL_KERNELS=tsvc_2_s000,tsvc_2_s111,relu DRILL_REPETITIONS=2 DRILL_WORKERS=2 \
#   DRILL_KILL_AFTER_S=15 DRILL_DOWN_S=5 scripts/outage-drill.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
kernels=${DRILL_KERNELS:-all}
repetitions=${DRILL_REPETITIONS:-2}
workers=${DRILL_WORKERS:-8}
kill_after=${DRILL_KILL_AFTER_S:-45}
down=${DRILL_DOWN_S:-10}
outage_wait=${DRILL_OUTAGE_WAIT_S:-600}

for b in hpcab-judge hpcab-runner hpcab-harness hpcab-tool hpcab; do
  [ -x "$build/$b" ] || { echo "outage-drill: missing $build/$b (run make build first)" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "outage-drill: sqlite3 is missing (scripts/install-deps.sh)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpcab-outage-drill.XXXXXX")
chmod 711 "$tmp"  # the sandbox uid must traverse it to reach the scratch dir when run as root
judge_pid=
harness_pid=
stop_judge() {  # $1: signal
  [ -n "$judge_pid" ] || return 0
  kill "-$1" -- "-$judge_pid" 2>/dev/null || true
  wait "$judge_pid" 2>/dev/null || true
  judge_pid=
}
cleanup() {
  local rc=$?
  if [ -n "$harness_pid" ]; then
    kill -TERM "$harness_pid" 2>/dev/null || true
    wait "$harness_pid" 2>/dev/null || true
  fi
  stop_judge TERM
  if [ "${DRILL_KEEP:-0}" = 1 ]; then
    echo "outage-drill: kept $tmp" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A fixed port, so that the restarted judge is where the workers are pinned.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
# Small grades keep the drill short; what it measures (no episode lost, none graded twice) does
# not depend on how precisely a grade is timed.
if [ -n "${DRILL_JUDGE_CONFIG:-}" ]; then
  cp "$DRILL_JUDGE_CONFIG" "$tmp/judge.json"
else
  cat >"$tmp/judge.json" <<'JSON'
{"timed_calls": 5, "hidden_variants": 2, "submit_fuzzed_configs": 1, "min_call_ms": 0}
JSON
fi

start_judge() {
  : >"$tmp/judge.out"
  setsid "$build/hpcab-judge" --config "$tmp/judge.json" --port "$port" --state-dir "$tmp/state" \
    --scratch-dir "$tmp/scratch" >"$tmp/judge.out" 2>>"$tmp/judge.log" &
  judge_pid=$!
  for _ in $(seq 1200); do  # up to 120 s: the first start measures the memory bandwidth
    grep -q "listening on" "$tmp/judge.out" 2>/dev/null && return 0
    kill -0 "$judge_pid" 2>/dev/null || { echo "outage-drill: the judge exited during startup:" >&2; tail -n 20 "$tmp/judge.log" >&2; exit 2; }
    sleep 0.1
  done
  echo "outage-drill: the judge did not start within 120 s" >&2
  exit 2
}

cat >"$tmp/arm.env" <<ENV
NAME=outage-drill
KERNELS=$kernels
REPETITIONS=$repetitions
AGENT=identity
WORKERS=$workers
WALL_BUDGET_S=3600
OUTAGE_WAIT_S=$outage_wait
JUDGE_URLS=$url
STATE_DB=$tmp/harness.db
ENV
episodes=$("$build/hpcab-harness" plan "$tmp/arm.env" | grep -c '^[0-9]')

start_judge
echo "== outage drill: identity arm, $episodes episodes ($kernels x $repetitions), $workers workers, judge $url"
echo "   the judge is killed with SIGKILL ${kill_after} s in and started again ${down} s later (OUTAGE_WAIT_S $outage_wait)"
t0=$(date +%s.%N)
"$build/hpcab-harness" run "$tmp/arm.env" --workspaces "$tmp/ws" --progress-interval 5 \
  >"$tmp/harness.log" 2>&1 &
harness_pid=$!

drilled=1
for _ in $(seq $((kill_after * 10))); do
  kill -0 "$harness_pid" 2>/dev/null || { drilled=0; break; }
  sleep 0.1
done
count_sql="SELECT count(*) FROM submissions"
if [ "$drilled" = 1 ]; then
  before=$(sqlite3 "$tmp/state/judge.db" "$count_sql" 2>/dev/null || echo "?")
  stop_judge KILL
  echo "   $(date -u +%T) judge killed ($before submissions graded so far)"
  sleep "$down"
  start_judge
  echo "   $(date -u +%T) judge restarted"
fi
harness_rc=0
wait "$harness_pid" || harness_rc=$?
harness_pid=
elapsed=$(python3 -c "import time; print(round(time.time() - $t0))")

# Figures. Lost: an episode without a graded final submission.
hdb=$tmp/harness.db
jdb=$tmp/state/judge.db
graded=$(sqlite3 "$hdb" "SELECT count(*) FROM episodes WHERE arm = 'outage-drill' AND status = 'finished' AND final_submission_id IS NOT NULL")
infra=$(sqlite3 "$hdb" "SELECT count(*) FROM episodes WHERE arm = 'outage-drill' AND status = 'infra_failed'")
failed=$(sqlite3 "$hdb" "SELECT count(*) FROM episodes WHERE arm = 'outage-drill' AND status = 'failed'")
lost=$((episodes - graded))
reruns=$(sqlite3 "$hdb" "SELECT coalesce(sum(infra_failures), 0) FROM episodes WHERE arm = 'outage-drill'")
twice=$(sqlite3 "$jdb" "SELECT count(*) FROM (SELECT run_id FROM submissions WHERE run_id != '' GROUP BY run_id HAVING count(*) > 1)")
submissions=$(sqlite3 "$jdb" "$count_sql")
waited=$(grep -c "unreachable since" "$tmp/harness.log" || true)
tool_waits=$(cat "$tmp"/ws/outage-drill/*/*/attempt-*.log 2>/dev/null | grep -c "unreachable since" || true)
"$build/hpcab" report extract --judge-db "$jdb" --harness-db "$hdb" --out "$tmp/observations.csv" \
  >"$tmp/extract.txt" 2>&1 || true
"$build/hpcab" report summary "$tmp/observations.csv" --resamples 1000 >"$tmp/summary.txt" 2>&1 || true
rate=$(grep -o 'solved [0-9]* ([0-9.]*%)' "$tmp/summary.txt" | head -n 1 || true)

echo "   episodes: $episodes planned, $graded finished with a grade, $lost lost ($infra infra_failed, $failed failed); $reruns attempt(s) rerun after an infrastructure failure"
echo "   judge: $submissions submissions recorded, $twice run(s) graded twice"
echo "   outage lines: $waited in the daemon's log, $tool_waits in the agents' logs; hpcab-harness exit $harness_rc; $elapsed s"
echo "   extract: $(head -n 1 "$tmp/extract.txt")"
echo "   summary: ${rate:-no summary} (expected: solved $episodes (100.0%))"

ok=1
[ "$drilled" = 1 ] || { echo "outage-drill: FAIL: the arm ended within ${kill_after} s, before the kill (more kernels or a smaller DRILL_KILL_AFTER_S)" >&2; ok=0; }
[ "$lost" -eq 0 ] || { echo "outage-drill: FAIL: $lost episode(s) lost" >&2; ok=0; }
[ "$twice" -eq 0 ] || { echo "outage-drill: FAIL: $twice submission(s) graded twice" >&2; ok=0; }
[ "$rate" = "solved $episodes (100.0%)" ] || { echo "outage-drill: FAIL: success rate '$rate', expected 100%" >&2; ok=0; }
[ "$harness_rc" -eq 0 ] || { echo "outage-drill: FAIL: hpcab-harness exited $harness_rc" >&2; ok=0; }
if [ "$ok" = 0 ]; then
  echo "outage-drill: the daemon's last lines:" >&2
  tail -n 30 "$tmp/harness.log" >&2
  exit 1
fi
echo "   PASS"
