#!/usr/bin/env bash
# The Slurm launcher on a real Slurm cluster (issue 6): scripts/slurm-local.sh runs munged,
# slurmctld and three slurmd (n1..n3) on this host; deploy/slurm runs arms on it.
#
#   tests/slurm/slurm_test.sh start | smoke | two-agents | mismatch | judge-killed | stop | dry-run
#
# start/stop bring the cluster up and down (ctest fixture). The cases:
#   dry-run       submit.sh --dry-run on deploy/arms/slurm-identity.env prints the plan (no
#                 cluster needed), the same arm with AGENT_NODES=3 prints one harness command per
#                 agent node, and a plain run outside an allocation refuses with exit 2
#   smoke         a 3-node arm (1 inference node running hpcab-fake-llm, 1 agent node, 1 judge
#                 node), 2 kernels, submitted with `submit.sh ... --wait`: exit 0, episodes
#                 recorded, the model metered, submissions in the merged database, a summary,
#                 no process left behind
#   two-agents    0 inference nodes (AGENT=identity needs no model), 2 agent nodes of 1 worker
#                 each, 1 judge node, 3 kernels: exit 0; harness-0.db and harness-1.db hold
#                 disjoint shards (seq % 2) that together are the whole arm, each episode run
#                 once by its node's global worker (0 or 1) with rank 0; all graded and merged
#   mismatch      the same arm on 2 nodes: exit 2 before anything starts
#   judge-killed  the judge is killed with SIGKILL while agents run: the job fails (exit 6) and
#                 every step is stopped, leaving no process behind
# Exit 77 (ctest: skipped) when Slurm cannot start here, with the reason; with CI=true that is
# a failure instead: CI must run this test.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
build=$(cd "$build" && pwd)
export BUILD_DIR=$build
export HPCAB_SLURM_DIR=${HPCAB_SLURM_DIR:-$build/slurm-local}
cluster=$root/scripts/slurm-local.sh
case_name=${1:-}
work=$build/slurm-test/$case_name

say() { echo "slurm-test[$case_name]: $*" >&2; }
fail() {
  say "FAIL: $*"
  exit 1
}

skip_or_fail() {
  if [ "${CI:-}" = true ]; then
    fail "Slurm cannot start here, and CI=true requires this test to run: $*"
  fi
  say "SKIPPED: Slurm cannot start on this host: $*"
  exit 77
}

cluster_up() {
  local rc=0
  "$cluster" start || rc=$?
  if [ "$rc" -eq 77 ]; then skip_or_fail "$(cat "$HPCAB_SLURM_DIR/unavailable" 2>/dev/null)"; fi
  [ "$rc" -eq 0 ] || fail "scripts/slurm-local.sh start failed ($rc)"
  eval "$("$cluster" env)"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Processes that belong to this case: the run folder in their command line or working dir.
leftovers() {
  local p cmd cwd
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" != $$ ] || continue
    cmd=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null || true)
    cwd=$(readlink "$p/cwd" 2>/dev/null || true)
    case "$cmd" in *slurm_test.sh*) continue ;; esac
    if [[ "$cmd" == *"$work/"* || "$cwd" == "$work/"* ]]; then echo "${p#/proc/} $cmd"; fi
  done
}

assert_no_leftovers() {
  local deadline=$((SECONDS + 20)) left
  while :; do
    left=$(leftovers)
    [ -n "$left" ] || return 0
    [ $SECONDS -lt $deadline ] || fail "processes left behind: $left"
    sleep 0.5
  done
}

sql() { sqlite3 -batch -noheader "$1" "$2"; }

# write_arm NAME KERNELS AGENT INFERENCE_NODES [AGENT_NODES [WORKERS]]: the test arm and its
# judge settings. AGENT is a built-in optimizer's name (identity, ...) or a shell command (then
# AGENT=command). AGENT_NODES defaults to 1, WORKERS (per agent node) to 2.
write_arm() {
  local name=$1 kernels=$2 command=$3 inference=$4 agents=${5:-1} workers=${6:-2}
  mkdir -p "$work"
  # Small grades: the judge e2e tests' settings (tests/judge/judge_process.h), no hidden preset
  # draw either: at the paper's presets s000's M holds 1.4 GiB of arrays, and two workers
  # grading it at once got a runner killed for memory on the 2-core test VM.
  cat >"$work/judge.json" <<EOF
{"bandwidth_file": "$build/test-bandwidth.json", "timed_calls": 5, "hidden_variants": 2,
 "submit_fuzzed_configs": 1, "call_timeout_s": 20, "min_call_ms": 0, "hidden_presets": []}
EOF
  cat >"$work/$name.env" <<EOF
NAME=$name
KERNELS=$kernels
LANGUAGE=c
$(case "$command" in
    identity | autopar-gcc | autopar-polly) echo "AGENT=$command" ;;
    *) printf 'AGENT=command\nAGENT_COMMAND=%s\n' "$command" ;;
  esac)
WORKERS=$workers
WALL_BUDGET_S=300
SUBMISSION_POLICY=single
INFERENCE_NODES=$inference
AGENT_NODES=$agents
JUDGE_NODES=1
$( [ "$inference" -gt 0 ] && echo "INFERENCE_COMMAND=hpcab-fake-llm --host {host} --port {port}")
INFERENCE_PORT=$(free_port)
JUDGE_PORT=$(free_port)
JUDGE_CONFIG=judge.json
MIN_COVERAGE=1
JUDGE_STARTUP_S=120
INFERENCE_STARTUP_S=60
EOF
}

# The smoke arm's agent: the built-in `identity` optimizer (resubmits the kernel's reference; no
# model). The fake inference server is still started on its node and health-checked.
smoke_agent=identity

export HPCAB_ROOT=$root HPCAB_BIN_DIR=$build HPCAB_STOP_GRACE_S=10 HPCAB_PROGRESS_INTERVAL_S=5

case "$case_name" in
  start)
    cluster_up
    ;;
  stop)
    "$cluster" stop
    ;;
  smoke)
    cluster_up
    rm -rf "$work"
    write_arm slurm-smoke s000,s111 "$smoke_agent" 1
    export HPCAB_RUN_ROOT=$work/runs
    t0=$SECONDS
    rc=0
    "$root/deploy/slurm/submit.sh" "$work/slurm-smoke.env" --wait >"$work/submit.out" 2>&1 || rc=$?
    out=$(ls "$HPCAB_RUN_ROOT"/slurm-smoke-*.out 2>/dev/null | head -n 1)
    [ -n "$out" ] || fail "no job output in $HPCAB_RUN_ROOT: $(cat "$work/submit.out")"
    run=${out%.out}
    say "job ran in $((SECONDS - t0)) s, exit $rc; output $out"
    [ "$rc" -eq 0 ] || { cat "$out" >&2; tail -n 30 "$run"/logs/*.log >&2 || true; fail "exit $rc, expected 0"; }
    hdb=$run/harness-0.db
    [ "$(sql "$hdb" "SELECT count(*) FROM episodes WHERE arm = 'slurm-smoke'")" = 2 ] ||
      fail "expected 2 episodes in $hdb"
    [ "$(sql "$hdb" "SELECT count(*) FROM episodes WHERE status = 'finished' AND exit_reason = 'submitted'")" = 2 ] ||
      fail "episodes not finished with a submission: $(sql "$hdb" "SELECT id, status, exit_reason FROM episodes")"
    [ "$(sql "$hdb" "SELECT count(*) FROM episodes WHERE final_verdict = 'ok'")" = 2 ] ||
      fail "identity should be graded ok: $(sql "$hdb" "SELECT id, final_verdict FROM episodes")"
    jdb=$run/judge.db
    [ -f "$jdb" ] || fail "no merged judge database $jdb"
    subs=$(sql "$jdb" "SELECT count(*) FROM submissions")
    [ "$subs" -ge 2 ] || fail "expected >= 2 submissions in the merged database, got $subs"
    [ "$(sql "$jdb" "SELECT count(DISTINCT kernel) FROM submissions")" = 2 ] || fail "not both kernels graded"
    [ "$(sql "$jdb" "SELECT count(*) FROM merged_submissions WHERE rank = 0")" = "$subs" ] ||
      fail "merged_submissions does not map every submission"
    # Every episode's final submission is found in the merged file by (rank, submission id).
    while IFS='|' read -r rank sid; do
      [ "$(sql "$jdb" "SELECT count(*) FROM merged_submissions WHERE rank = $rank AND shard_submission_id = $sid")" = 1 ] ||
        fail "episode submission (rank $rank, id $sid) not in the merged database"
    done < <(sql "$hdb" "SELECT rank, final_submission_id FROM episodes")
    grep -q "kernels covered (at least one graded submission): 2 of 2" "$run/summary.txt" ||
      fail "summary: $(cat "$run/summary.txt")"
    assert_no_leftovers
    say "PASS: exit 0, 2 episodes, $subs submissions merged, summary written"
    ;;
  two-agents)
    cluster_up
    rm -rf "$work"
    name=slurm-two-agents
    write_arm "$name" s000,relu,cumsum identity 0 2 1
    export HPCAB_RUN_ROOT=$work/runs
    t0=$SECONDS
    rc=0
    "$root/deploy/slurm/submit.sh" "$work/$name.env" --wait >"$work/submit.out" 2>&1 || rc=$?
    out=$(ls "$HPCAB_RUN_ROOT"/"$name"-*.out 2>/dev/null | head -n 1)
    [ -n "$out" ] || fail "no job output in $HPCAB_RUN_ROOT: $(cat "$work/submit.out")"
    run=${out%.out}
    say "job ran in $((SECONDS - t0)) s, exit $rc; output $out"
    [ "$rc" -eq 0 ] || { cat "$out" >&2; tail -n 30 "$run"/logs/*.log >&2 || true; fail "exit $rc, expected 0"; }
    [ ! -e "$run/harness.db" ] || fail "a harness.db besides the per-node databases"
    # The plan names both harnesses with their shard and worker offset, on the two agent nodes.
    grep -qF -- "harness-0 on n1 (episodes with seq % 2 == 0, workers 0..0)" "$run/plan.txt" &&
      grep -qF -- "--shard 1/2 --worker-offset 1" "$run/plan.txt" || fail "plan: $(cat "$run/plan.txt")"
    all=()
    for i in 0 1; do
      hdb=$run/harness-$i.db
      [ -f "$hdb" ] || fail "no episode database $hdb"
      [ -s "$run/logs/harness-$i.log" ] || fail "no log of harness-$i"
      n=$(sql "$hdb" "SELECT count(*) FROM episodes WHERE arm = '$name'")
      [ "$n" -ge 1 ] || fail "harness-$i ran no episode"
      # Its own shard only, run once, by its node's global worker (WORKERS=1: worker i), rank 0.
      bad=$(sql "$hdb" "SELECT id, seq, worker, rank, status, exit_reason, final_verdict, attempt FROM episodes WHERE seq % 2 != $i OR worker != $i OR rank != 0 OR status != 'finished' OR exit_reason != 'submitted' OR final_verdict != 'ok' OR attempt != 1")
      [ -z "$bad" ] || fail "harness-$i.db: episodes outside its shard, worker or rank, or not graded ok: $bad"
      mapfile -t ids < <(sql "$hdb" "SELECT id FROM episodes")
      all+=("${ids[@]}")
      # Every episode's final submission is in the merged database under its rank.
      while IFS='|' read -r rank sid; do
        [ "$(sql "$run/judge.db" "SELECT count(*) FROM merged_submissions WHERE rank = $rank AND shard_submission_id = $sid")" = 1 ] ||
          fail "harness-$i: submission (rank $rank, id $sid) not in the merged database"
      done < <(sql "$hdb" "SELECT rank, final_submission_id FROM episodes")
    done
    want="$name/cumsum/0 $name/relu/0 $name/s000/0"
    got=$(printf '%s\n' "${all[@]}" | sort | tr '\n' ' ')
    [ "${got% }" = "$want" ] || fail "episodes across the two databases: '$got', want '$want' (each exactly once)"
    [ "$(sql "$run/judge.db" "SELECT count(DISTINCT kernel) FROM submissions")" = 3 ] || fail "not every kernel graded"
    grep -q "kernels covered (at least one graded submission): 3 of 3" "$run/summary.txt" &&
      grep -q "^  finished submitted 3$" "$run/summary.txt" &&
      grep -q "^  1 n2 0 " "$run/summary.txt" || fail "summary: $(cat "$run/summary.txt")"
    assert_no_leftovers
    say "PASS: exit 0, 3 episodes split $(sql "$run/harness-0.db" "SELECT count(*) FROM episodes")+$(sql "$run/harness-1.db" "SELECT count(*) FROM episodes") across harness-0.db and harness-1.db, all merged"
    ;;
  mismatch)
    cluster_up
    rm -rf "$work"
    write_arm slurm-mismatch s000 "$smoke_agent" 1
    export HPCAB_RUN_ROOT=$work/runs
    mkdir -p "$HPCAB_RUN_ROOT"
    rc=0
    sbatch --wait --nodes=2 --output="$work/job.out" "$root/deploy/slurm/hpcab-arm.sbatch" \
      "$work/slurm-mismatch.env" >/dev/null 2>&1 || rc=$?
    [ "$rc" -eq 2 ] || { cat "$work/job.out" >&2; fail "exit $rc, expected 2"; }
    grep -q "allocation mismatch: the job has 2 node(s)" "$work/job.out" ||
      fail "no clear message: $(cat "$work/job.out")"
    grep -q "Submit with --nodes=3" "$work/job.out" || fail "the message does not say what to do"
    [ -z "$(ls -A "$HPCAB_RUN_ROOT")" ] || fail "something was started: $(ls -R "$HPCAB_RUN_ROOT")"
    assert_no_leftovers
    say "PASS: exit 2, nothing started: $(grep -o 'allocation mismatch.*= 3' "$work/job.out")"
    ;;
  judge-killed)
    cluster_up
    rm -rf "$work"
    write_arm slurm-killed s000,s111 "sleep 297" 1
    export HPCAB_RUN_ROOT=$work/runs
    rc_file=$work/rc
    (
      rc=0
      "$root/deploy/slurm/submit.sh" "$work/slurm-killed.env" --wait >"$work/submit.out" 2>&1 || rc=$?
      echo "$rc" >"$rc_file"
    ) &
    # Wait until both agents run (their workspaces exist and `sleep 297` is up), then kill the
    # judge the way a node failure or the OOM killer would.
    judge=""
    deadline=$((SECONDS + 120))
    while [ $SECONDS -lt $deadline ]; do
      agents=$(pgrep -xf "sleep 297" | wc -l || true)
      judge=$(pgrep -f "^$build/hpcab-judge .*$work/" | head -n 1 || true)  # not its srun
      [ "$agents" -ge 2 ] && [ -n "$judge" ] && break
      [ ! -f "$rc_file" ] || fail "the job ended before its agents ran: $(cat "$work/submit.out")"
      sleep 0.5
    done
    [ -n "$judge" ] && [ "${agents:-0}" -ge 2 ] || fail "agents or judge never came up"
    say "agents running; kill -9 judge $judge"
    kill -KILL "$judge"
    deadline=$((SECONDS + 120))
    while [ ! -s "$rc_file" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
    [ -s "$rc_file" ] || fail "the job did not end within 120 s of the judge's death"
    wait
    rc=$(cat "$rc_file")
    out=$(ls "$HPCAB_RUN_ROOT"/slurm-killed-*.out | head -n 1)
    [ "$rc" -eq 6 ] || { cat "$out" >&2; fail "exit $rc, expected 6 (a role died)"; }
    grep -q "judge-0 died while the harness was running" "$out" || fail "no clear message: $(cat "$out")"
    assert_no_leftovers
    [ -z "$(pgrep -xf 'sleep 297' || true)" ] || fail "an agent survived"
    say "PASS: exit 6, $(grep -o 'judge-0 died[^:]*' "$out" | head -n 1), nothing left running"
    ;;
  dry-run)
    arm=$root/deploy/arms/slurm-identity.env
    plan=$("$root/deploy/slurm/submit.sh" --dry-run "$arm" 2>&1) || fail "dry run failed: $plan"
    for want in "would run: sbatch --nodes=3 --job-name=hpcab-slurm-identity" \
      "nodes: 0 inference + 1 agent + 2 judge = 3" "judge rank 0 on node2: http://node2:8800" \
      "judge rank 1 on node3: http://node3:8801" "harness-0 on node1" \
      "--judge-urls http://node2:8800,http://node3:8801" "inference: none"; do
      grep -qF -- "$want" <<<"$plan" || fail "the plan lacks '$want': $plan"
    done
    # Three agent nodes: one harness per node, each with its shard, offset and database.
    mkdir -p "$work"
    sed 's/^AGENT_NODES=.*/AGENT_NODES=3/' "$arm" >"$work/three.env"
    plan=$("$root/deploy/slurm/submit.sh" --dry-run "$work/three.env" 2>&1) || fail "dry run failed: $plan"
    for want in "would run: sbatch --nodes=5" "4 worker(s) per agent node x 3 agent node(s) = 12" \
      "harness-0 on node1 (episodes with seq % 3 == 0, workers 0..3)" \
      "harness-2 on node3 (episodes with seq % 3 == 2, workers 8..11)" \
      "--shard 1/3 --worker-offset 4" "harness-1.db" "judge rank 0 on node4" \
      "worker w (0..11, numbered across the agent nodes) -> judge rank w % 2"; do
      grep -qF -- "$want" <<<"$plan" || fail "the 3-agent-node plan lacks '$want': $plan"
    done
    [ "$(grep -c '^harness-[0-9]* on ' <<<"$plan")" = 3 ] || fail "expected 3 harness lines: $plan"
    rc=0
    (unset SLURM_JOB_NODELIST SLURM_JOB_ID; "$root/deploy/slurm/hpcab-arm.sbatch" "$arm") >"$build/slurm-dry-run.out" 2>&1 || rc=$?
    [ "$rc" -eq 2 ] && grep -q "not inside a Slurm allocation" "$build/slurm-dry-run.out" ||
      fail "outside an allocation: exit $rc, $(cat "$build/slurm-dry-run.out")"
    say "PASS: the plan of deploy/arms/slurm-identity.env and of 3 agent nodes; exit 2 outside an allocation"
    ;;
  *)
    echo "usage: $0 start|smoke|two-agents|mismatch|judge-killed|stop|dry-run" >&2
    exit 2
    ;;
esac
