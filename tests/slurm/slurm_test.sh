#!/usr/bin/env bash
# The Slurm launcher on a real Slurm cluster: scripts/slurm-local.sh runs munged,
# slurmctld and three slurmd (n1..n3) on this host; deploy/slurm runs arms on it.
#
#   tests/slurm/slurm_test.sh start | smoke | two-agents | mismatch | judge-killed |
#                             judge-killed-no-restart | harness-rerun | stop | dry-run
#
# start/stop bring the cluster up and down (ctest fixture). The cases:
#   dry-run       submit.sh --dry-run on deploy/arms/slurm-identity.env prints the plan (no
#                 cluster needed), the same arm with AGENT_NODES=3 prints one harness command per
#                 agent node, --judges auto sizes the judges for 100 agents (arithmetic, no
#                 timing) and --judges N replaces JUDGE_NODES, and a plain run outside an
#                 allocation refuses with exit 2
#   smoke         a 3-node arm (1 inference node running hpcab-fake-llm, 1 agent node, 1 judge
#                 node), 2 kernels, submitted with `submit.sh ... --wait`: exit 0, episodes
#                 recorded, the model metered, submissions in the merged database, a summary,
#                 no process left behind
#   two-agents    0 inference nodes (AGENT=identity needs no model), 2 agent nodes of 1 worker
#                 each, 1 judge node, 3 kernels: exit 0; harness-0.db and harness-1.db hold
#                 disjoint shards (seq % 2) that together are the whole arm, each episode run
#                 once by its node's global worker (0 or 1) with rank 0; all graded and merged
#   mismatch      the same arm on 2 nodes: exit 2 before anything starts
#   judge-killed  the judge is killed with SIGKILL while it grades both agents' submissions: the
#                 launcher restarts it in place (same node, command line: port, state dir, key),
#                 the tools send their submits again once it answers; exit 0, every episode
#                 graded, nothing graded twice in the merged database, no process left behind
#   judge-killed-no-restart  the judge is killed while agents run, with HPCAB_JUDGE_RESTARTS=0:
#                 the job fails (exit 6) and every step is stopped, leaving no process behind
#   harness-rerun a harness that exits 4 (its episode left infra_failed by judge faults) is run
#                 once more, which grades the episode: exit 0; one whose rerun exits 4 too: exit 1
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
    cmd=$( { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null || true)  # it may be gone by now
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

# Submits the arm $work/$name.env with --wait in the background: its output goes to
# $work/submit.out and its exit status, once it ends, to the file $rc_file ($work/rc).
submit_in_background() {
  rc_file=$work/rc
  (
    rc=0
    "$root/deploy/slurm/submit.sh" "$work/$name.env" --wait >"$work/submit.out" 2>&1 || rc=$?
    echo "$rc" >"$rc_file"
  ) &
}

# write_arm NAME KERNELS AGENT INFERENCE_NODES [AGENT_NODES [WORKERS]]: the test arm and its
# judge settings. AGENT is a built-in optimizer's name (identity, ...) or a shell command (then
# AGENT=command). AGENT_NODES defaults to 1, WORKERS (per agent node) to 2.
write_arm() {
  local name=$1 kernels=$2 command=$3 inference=$4 agents=${5:-1} workers=${6:-2}
  mkdir -p "$work"
  # Small grades: the judge e2e tests' settings (tests/judge/judge_process.h), no hidden preset
  # draw either: at the paper's presets tsvc_2_s000's M holds 1.4 GiB of arrays, and two workers
  # grading it at once got a runner killed for memory on the 2-core test VM. No slot watch: the
  # test counts grades, and steal on the VM must not turn one into a judge fault.
  cat >"$work/judge.json" <<EOF
{"bandwidth_file": "$build/test-bandwidth.json", "timed_calls": 5, "hidden_variants": 2,
 "submit_fuzzed_configs": 1, "call_timeout_s": 20, "min_call_ms": 0, "hidden_presets": [],
 "track_baseline": {"loop_level_reasoning": "c", "scientific_computing": "c,c-autopar",
                    "machine_learning": "c"}, "report_baselines": "",
 "slot_wait_max": 0, "slot_steal_max": 0}
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
    write_arm slurm-smoke tsvc_2_s000,tsvc_2_s111 "$smoke_agent" 1
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
    write_arm "$name" tsvc_2_s000,relu,cumsum identity 0 2 1
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
    want="$name/cumsum/0 $name/relu/0 $name/tsvc_2_s000/0"
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
    write_arm slurm-mismatch tsvc_2_s000 "$smoke_agent" 1
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
    name=slurm-killed
    mkdir -p "$work"
    # The agent says it runs, waits for the test's go, then submits its kernel's reference.
    cat >"$work/agent.sh" <<AGENT
touch "$work/started.\$KERNEL"
while [ ! -f "$work/go" ]; do sleep 0.1; done
exec hpcab-tool builtin identity
AGENT
    write_arm "$name" tsvc_2_s000,tsvc_2_s111 "sh $work/agent.sh" 1
    port=$(sed -n 's/^JUDGE_PORT=//p' "$work/$name.env")
    export HPCAB_RUN_ROOT=$work/runs HPCAB_RESTART_PAUSE_S=2
    submit_in_background
    judges() { pgrep -f "^$build/hpcab-judge .*$work/" || true; }  # not their srun
    judge=""
    deadline=$((SECONDS + 120))
    while [ $SECONDS -lt $deadline ]; do
      judge=$(judges | head -n 1)
      [ -n "$judge" ] && [ -f "$work/started.tsvc_2_s000" ] && [ -f "$work/started.tsvc_2_s111" ] && break
      [ ! -f "$rc_file" ] || fail "the job ended before its agents ran: $(cat "$work/submit.out")"
      sleep 0.5
    done
    [ -n "$judge" ] && [ -f "$work/started.tsvc_2_s000" ] && [ -f "$work/started.tsvc_2_s111" ] ||
      fail "agents or judge never came up"
    judge_cmd=$(tr '\0' ' ' <"/proc/$judge/cmdline")
    # Both agents submit; once the judge is grading, kill it the way a node failure or the OOM
    # killer would: one grade in flight, the other queued behind it.
    touch "$work/go"
    deadline=$((SECONDS + 60))
    until curl -s -m 2 "http://127.0.0.1:$port/metrics" | grep -qE '^hpcab_queue_running [1-9]'; do
      [ $SECONDS -lt $deadline ] || fail "the judge never started grading the agents' submissions"
      sleep 0.2
    done
    say "the judge grades; kill -9 judge $judge"
    kill -KILL "$judge"
    new=""
    deadline=$((SECONDS + 60))
    while [ -z "$new" ] && [ $SECONDS -lt $deadline ]; do
      new=$(judges | grep -vx "$judge" | head -n 1 || true)
      [ -n "$new" ] || sleep 0.2
    done
    [ -n "$new" ] || fail "no judge was started again within 60 s: $(cat "$HPCAB_RUN_ROOT"/$name-*.out)"
    new_cmd=$( { tr '\0' ' ' <"/proc/$new/cmdline"; } 2>/dev/null || true)
    [ "$new_cmd" = "$judge_cmd" ] ||
      fail "the judge was restarted with another command line: '$new_cmd', was '$judge_cmd'"
    say "judge restarted as $new with the same command line"
    deadline=$((SECONDS + 240))
    while [ ! -s "$rc_file" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
    [ -s "$rc_file" ] || fail "the job did not end within 240 s of the judge's death"
    wait
    rc=$(cat "$rc_file")
    out=$(ls "$HPCAB_RUN_ROOT"/"$name"-*.out | head -n 1)
    run=${out%.out}
    [ "$rc" -eq 0 ] || { cat "$out" >&2; tail -n 30 "$run"/logs/*.log >&2 || true; fail "exit $rc, expected 0 (the judge restarted in place)"; }
    grep -q "judge-0 died while the harness was running (exit [0-9]*): restarting it in 2 s on .* (restart 1 of 3, HPCAB_JUDGE_RESTARTS)" "$out" ||
      fail "no clear restart line: $(cat "$out")"
    # On the node it ran on before, its log continued.
    hosts=$(grep -o 'started judge-0 on [^ ]*' "$out" | awk '{print $4}' | sort -u)
    [ "$(grep -c 'started judge-0 on ' "$out")" = 2 ] && [ "$(wc -l <<<"$hosts")" = 1 ] ||
      fail "not restarted once on its own node: $(grep 'started judge-0' "$out")"
    grep -q "judge-0 started again (start 2 of this job)" "$run/logs/judge-0.log" ||
      fail "the judge's log does not show the restart"
    grep -q "^restarted after dying (role times): judge-0 1$" "$run/summary.txt" ||
      fail "summary: $(cat "$run/summary.txt")"
    # Every episode graded; none failed or left infra_failed.
    hdb=$run/harness-0.db
    [ "$(sql "$hdb" "SELECT count(*) FROM episodes WHERE arm = '$name'")" = 2 ] || fail "expected 2 episodes in $hdb"
    bad=$(sql "$hdb" "SELECT id, status, exit_reason, final_verdict, final_submission_id FROM episodes WHERE status != 'finished' OR exit_reason != 'submitted' OR coalesce(final_verdict, '') = '' OR final_submission_id IS NULL")
    [ -z "$bad" ] || fail "episodes not graded: $bad"
    # The submits in flight were sent again once the judge answered, under their keys...
    grep -rqs "answers again after" "$run/episodes" ||
      fail "no agent log shows a submit waiting out the judge's restart"
    # ...and nothing was graded twice: one submission per attempt's run id and per key, and the
    # one of each episode's final attempt is its final submission.
    jdb=$run/judge.db
    twice=$(sql "$jdb" "SELECT run_id, count(*) FROM submissions GROUP BY run_id HAVING count(*) > 1")
    [ -z "$twice" ] || fail "submissions graded twice (run id, count): $twice"
    twice=$(sql "$jdb" "SELECT idempotency_key, count(*) FROM submissions WHERE idempotency_key IS NOT NULL GROUP BY rank, idempotency_key HAVING count(*) > 1")
    [ -z "$twice" ] || fail "an idempotency key graded twice: $twice"
    [ "$(sql "$jdb" "SELECT count(*) FROM submissions WHERE idempotency_key IS NULL")" = 0 ] ||
      fail "a submission without an idempotency key"
    while IFS='|' read -r id attempt rank sid; do
      [ "$(sql "$jdb" "SELECT count(*) FROM submissions WHERE run_id = '$id#$attempt'")" = 1 ] ||
        fail "$id attempt $attempt: not graded exactly once"
      [ "$(sql "$jdb" "SELECT count(*) FROM merged_submissions m JOIN submissions s ON s.id = m.id WHERE m.rank = $rank AND m.shard_submission_id = $sid AND s.run_id = '$id#$attempt'")" = 1 ] ||
        fail "$id: its final submission (rank $rank, id $sid) is not its attempt's grade in the merged database"
    done < <(sql "$hdb" "SELECT id, attempt, rank, final_submission_id FROM episodes")
    assert_no_leftovers
    say "PASS: exit 0, judge-0 restarted in place after kill -9 mid-grade, $(sql "$jdb" "SELECT count(*) FROM submissions") submissions for 2 episodes, each graded once"
    ;;
  judge-killed-no-restart)
    cluster_up
    rm -rf "$work"
    name=slurm-killed-nr
    mkdir -p "$work"
    # The agents sleep under a name of this run, so that the test counts its own processes only.
    printf 'exec -a %q sleep 297\n' "$work/agent-sleep" >"$work/agent.sh"
    write_arm "$name" tsvc_2_s000,tsvc_2_s111 "bash $work/agent.sh" 1
    export HPCAB_RUN_ROOT=$work/runs HPCAB_JUDGE_RESTARTS=0
    submit_in_background
    # Wait until both agents run (their workspaces exist and their sleep is up), then kill the
    # judge the way a node failure or the OOM killer would.
    judge=""
    deadline=$((SECONDS + 120))
    while [ $SECONDS -lt $deadline ]; do
      agents=$(pgrep -xf "$work/agent-sleep 297" | wc -l || true)
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
    out=$(ls "$HPCAB_RUN_ROOT"/"$name"-*.out | head -n 1)
    [ "$rc" -eq 6 ] || { cat "$out" >&2; fail "exit $rc, expected 6 (a role died)"; }
    grep -q "judge-0 died while the harness was running" "$out" || fail "no clear message: $(cat "$out")"
    ! grep -q "restarting it" "$out" || fail "restarted with HPCAB_JUDGE_RESTARTS=0: $(cat "$out")"
    assert_no_leftovers
    [ -z "$(pgrep -xf "$work/agent-sleep 297" || true)" ] || fail "an agent survived"
    say "PASS: exit 6, $(grep -o 'judge-0 died[^:]*' "$out" | head -n 1), nothing left running"
    ;;
  harness-rerun)
    cluster_up
    rm -rf "$work"
    export HPCAB_RUN_ROOT=$work/runs
    # run_rerun_arm NAME FAULTS: one kernel, one worker, INFRA_RETRIES=1; the agent's first
    # FAULTS attempts record a judge fault in their tool state (taken as written: the attempt
    # ends infra_failed) and end, later ones submit the reference. A run of the harness hands the
    # episode out once more after a fault (INFRA_RETRIES=1; a new run's first hand-out of an
    # infra_failed episode is that one requeue): the first run makes attempts 1 and 2 and exits 4
    # with the episode infra_failed, the rerun makes attempt 3.
    run_rerun_arm() {
      local arm=$1 faults=$2 d=$work/$1
      mkdir -p "$d"
      cat >"$d/agent.sh" <<AGENT
n=\$((\$(cat "$d/attempts" 2>/dev/null || echo 0) + 1))
echo "\$n" >"$d/attempts"
if [ "\$n" -le $faults ]; then
  echo '{"fault": "test", "verdict": "judge_error"}' >>"\$HPCAB_TOOL_STATE/faults.jsonl"
  exit 0
fi
exec hpcab-tool builtin identity
AGENT
      write_arm "$arm" tsvc_2_s000 "sh $d/agent.sh" 0 1 1
      echo "INFRA_RETRIES=1" >>"$work/$arm.env"
      rc=0
      "$root/deploy/slurm/submit.sh" "$work/$arm.env" --wait >"$d/submit.out" 2>&1 || rc=$?
      out=$(ls "$HPCAB_RUN_ROOT"/"$arm"-*.out 2>/dev/null | head -n 1)
      [ -n "$out" ] || fail "no job output in $HPCAB_RUN_ROOT: $(cat "$d/submit.out")"
      run=${out%.out}
      hdb=$run/harness-0.db
      say "$arm: exit $rc"
    }
    # Two faults: the first run exits 4, its rerun grades the episode (attempt 3).
    run_rerun_arm slurm-rerun 2
    [ "$rc" -eq 0 ] || { cat "$out" >&2; tail -n 30 "$run"/logs/*.log >&2 || true; fail "exit $rc, expected 0"; }
    grep -q "harness-0 exited 4: infra_failed episodes are left on its shard; running it once more" "$out" ||
      fail "no rerun line: $(cat "$out")"
    [ "$(grep -c 'started harness-0 on ' "$out")" = 2 ] || fail "harness-0 not started twice: $(cat "$out")"
    row=$(sql "$hdb" "SELECT status, exit_reason, attempt, infra_failures, final_verdict FROM episodes")
    [ "$row" = "finished|submitted|3|2|ok" ] || fail "the episode after the rerun: $row"
    grep -q "^  0 [^ ]* 4,0 " "$run/summary.txt" &&
      grep -q "^harnesses rerun after exit 4: harness-0$" "$run/summary.txt" ||
      fail "summary: $(cat "$run/summary.txt")"
    # Faults every time: the rerun exits 4 too, and the job fails with exit 1.
    run_rerun_arm slurm-rerun-left 100
    [ "$rc" -eq 1 ] || { cat "$out" >&2; fail "exit $rc, expected 1 (infra_failed episodes left after the rerun)"; }
    grep -q "FAILED: harness-0 exited 4 in its rerun too: 1 episode(s) of its shard are left infra_failed" "$out" ||
      fail "no clear message: $(cat "$out")"
    [ "$(sql "$hdb" "SELECT status, attempt FROM episodes")" = "infra_failed|3" ] ||
      fail "the episode: $(sql "$hdb" "SELECT status, attempt, exit_reason FROM episodes")"
    grep -q "^  0 [^ ]* 4,4 " "$run/summary.txt" || fail "summary: $(cat "$run/summary.txt")"
    assert_no_leftovers
    say "PASS: a harness that exits 4 is run once more: exit 0 once its episode is graded, exit 1 when the rerun exits 4 too"
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
    # --judges auto: 100 agents (4 agent nodes x 25 workers) x 12 grades/agent-hour (the
    # default) over 300 grades/judge-hour at the default utilisation 0.7 need
    # ceil(1200 / 210) = 6 judges: 4 + 6 = 10 nodes, judge ranks 0..5 on node5..node10.
    sed -e 's/^AGENT_NODES=.*/AGENT_NODES=4/' -e 's/^WORKERS=.*/WORKERS=25/' "$arm" >"$work/hundred.env"
    plan=$(env -u HPCAB_SUBMITS_PER_AGENT_HOUR -u HPCAB_TARGET_UTILISATION -u HPCAB_JUDGES \
      -u HPCAB_JUDGE_NODES HPCAB_GRADES_PER_JUDGE_HOUR=300 \
      "$root/deploy/slurm/submit.sh" --dry-run --judges auto "$work/hundred.env" 2>&1) ||
      fail "dry run with --judges auto failed: $plan"
    for want in "judges: auto: 100 agents (AGENT_NODES 4 x WORKERS 25) x 12 grades/agent-hour over 300 grades/judge-hour at utilisation 0.7 -> 6 judge(s)" \
      "would run: sbatch --nodes=10" "nodes: 0 inference + 4 agent + 6 judge = 10" \
      "judge rank 0 on node5: http://node5:8800" "judge rank 5 on node10: http://node10:8805" \
      "-> judge rank w % 6"; do
      grep -qF -- "$want" <<<"$plan" || fail "the --judges auto plan lacks '$want': $plan"
    done
    # The same from the environment, with the rate and utilisation overridden:
    # 100 x 6 / (300 x 0.5) = 4 judges.
    plan=$(env -u HPCAB_JUDGE_NODES HPCAB_JUDGES=auto HPCAB_GRADES_PER_JUDGE_HOUR=300 \
      HPCAB_SUBMITS_PER_AGENT_HOUR=6 HPCAB_TARGET_UTILISATION=0.5 \
      "$root/deploy/slurm/submit.sh" --dry-run "$work/hundred.env" 2>&1) ||
      fail "dry run with HPCAB_JUDGES=auto failed: $plan"
    grep -qF -- "would run: sbatch --nodes=8" <<<"$plan" || fail "HPCAB_JUDGES=auto: $plan"
    # A given count replaces JUDGE_NODES; a bad one or a bad sizing figure is refused (exit 2).
    plan=$(env -u HPCAB_JUDGES -u HPCAB_JUDGE_NODES "$root/deploy/slurm/submit.sh" --dry-run \
      --judges 3 "$arm" 2>&1) || fail "dry run with --judges 3 failed: $plan"
    for want in "would run: sbatch --nodes=4" "judge rank 2 on node4: http://node4:8802"; do
      grep -qF -- "$want" <<<"$plan" || fail "the --judges 3 plan lacks '$want': $plan"
    done
    for bad in "--judges 0" "--judges many" "--judges"; do
      rc=0
      # shellcheck disable=SC2086 # the option and its value, split on purpose
      out=$(env -u HPCAB_JUDGES -u HPCAB_JUDGE_NODES "$root/deploy/slurm/submit.sh" --dry-run \
        $bad "$arm" 2>&1) || rc=$?
      [ "$rc" -eq 2 ] || fail "submit.sh $bad: exit $rc, $out"
    done
    rc=0
    out=$(env -u HPCAB_JUDGE_NODES HPCAB_GRADES_PER_JUDGE_HOUR=fast "$root/deploy/slurm/submit.sh" \
      --dry-run --judges auto "$arm" 2>&1) || rc=$?
    [ "$rc" -eq 2 ] && grep -qF "is not a non-negative number" <<<"$out" ||
      fail "HPCAB_GRADES_PER_JUDGE_HOUR=fast: exit $rc, $out"
    rc=0
    (unset SLURM_JOB_NODELIST SLURM_JOB_ID; "$root/deploy/slurm/hpcab-arm.sbatch" "$arm") >"$build/slurm-dry-run.out" 2>&1 || rc=$?
    [ "$rc" -eq 2 ] && grep -q "not inside a Slurm allocation" "$build/slurm-dry-run.out" ||
      fail "outside an allocation: exit $rc, $(cat "$build/slurm-dry-run.out")"
    say "PASS: the plan of deploy/arms/slurm-identity.env and of 3 agent nodes; --judges auto (6 judges for 100 agents at 300 grades/judge-hour) and --judges 3; exit 2 outside an allocation"
    ;;
  *)
    echo "usage: $0 start|smoke|two-agents|mismatch|judge-killed|judge-killed-no-restart|harness-rerun|stop|dry-run" >&2
    exit 2
    ;;
esac
