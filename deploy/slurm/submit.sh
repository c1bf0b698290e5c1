#!/usr/bin/env bash
# Submits an arm as a Slurm job, asking for exactly the nodes its arm file names
# (INFERENCE_NODES + AGENT_NODES + JUDGE_NODES). Operator guide: docs/deploy.md.
#
#   deploy/slurm/submit.sh [--dry-run] [--judges N|auto] ARM [sbatch options...]
#
#   --dry-run   print the sbatch command and the plan (roles on placeholder nodes, URLs,
#               commands); submit nothing
#   --judges    N judges instead of the arm's JUDGE_NODES; auto: as many as the arm's agents
#               (AGENT_NODES x WORKERS) need (docs/deploy.md "Sizing a campaign")
#   sbatch options are passed on after --nodes, e.g. --time=12:00:00 --partition=gpu --wait
#
# Environment (exported to the job): HPCAB_BIN_DIR (default <checkout>/build), HPCAB_RUN_ROOT
# (default <checkout>/var/slurm; each job writes <arm>-<job id>/ there and the job's output to
# <arm>-<job id>.out), HPCAB_JUDGE_NODES (set from --judges: the job's judge count). For
# --judges (or HPCAB_JUDGES, the same values): HPCAB_SUBMITS_PER_AGENT_HOUR (grades an agent asks
# for per hour, default 12), HPCAB_GRADES_PER_JUDGE_HOUR (grades one judge gives per hour,
# measured by scripts/bench-throughput.py; default 500, docs/deploy.md),
# HPCAB_TARGET_UTILISATION (default 0.7). Exit: sbatch's (with --wait, the job's), or 2 for a
# bad arm file or option.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export HPCAB_ROOT=${HPCAB_ROOT:-$(cd "$here/../.." && pwd)}
export HPCAB_BIN_DIR=${HPCAB_BIN_DIR:-$HPCAB_ROOT/build}
HPCAB_BIN_DIR=$(realpath -m "$HPCAB_BIN_DIR")
export HPCAB_RUN_ROOT=${HPCAB_RUN_ROOT:-$HPCAB_ROOT/var/slurm}
HPCAB_RUN_ROOT=$(realpath -m "$HPCAB_RUN_ROOT")
# shellcheck source=deploy/slurm/lib.sh
source "$here/lib.sh"

usage() { sed -n '5,12p' "$0" | sed 's/^# *//' >&2; }
dry_run=0
judges=${HPCAB_JUDGES:-}
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) dry_run=1; shift ;;
    --judges)
      [ $# -ge 2 ] || { hpcab_log "--judges needs a value: a count or auto"; exit 2; }
      judges=$2
      shift 2
      ;;
    --judges=*) judges=${1#--judges=}; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ "${1:0:1}" = - ]; then
  usage
  exit 2
fi
arm=$1
shift
if [ ! -f "$arm" ]; then
  hpcab_log "no arm file at $arm"
  exit 2
fi
arm=$(realpath "$arm")
if [ ! -x "$HPCAB_BIN_DIR/hpcab-harness" ]; then
  hpcab_log "$HPCAB_BIN_DIR/hpcab-harness is missing: build the project (make build) or set HPCAB_BIN_DIR"
  exit 2
fi
hpcab_read_arm "$HPCAB_BIN_DIR/hpcab-harness" "$arm" || exit 2
# --judges: the count given, or (auto) the count the arm's agents need; the job reads it from
# HPCAB_JUDGE_NODES instead of the arm's JUDGE_NODES.
if [ "$judges" = auto ]; then
  agents=$((ARM[AGENT_NODES] * ARM[WORKERS]))
  rate=${HPCAB_SUBMITS_PER_AGENT_HOUR:-12}
  gph=${HPCAB_GRADES_PER_JUDGE_HOUR:-900}
  util=${HPCAB_TARGET_UTILISATION:-0.7}
  judges=$(hpcab_auto_judges "$agents" "$rate" "$gph" "$util") || exit 2
  hpcab_log "judges: auto: $agents agents (AGENT_NODES ${ARM[AGENT_NODES]} x WORKERS ${ARM[WORKERS]}) x $rate grades/agent-hour over $gph grades/judge-hour at utilisation $util -> $judges judge(s) (the arm says JUDGE_NODES ${ARM[JUDGE_NODES]})"
fi
if [ -n "$judges" ]; then
  if ! [[ $judges =~ ^[1-9][0-9]{0,3}$ ]]; then
    hpcab_log "--judges $judges: expected a whole number from 1 to 9999, or auto"
    exit 2
  fi
  export HPCAB_JUDGE_NODES=$judges
  ARM[JUDGE_NODES]=$judges
fi
nodes=$((ARM[INFERENCE_NODES] + ARM[AGENT_NODES] + ARM[JUDGE_NODES]))

cmd=(sbatch --nodes="$nodes" --job-name="hpcab-${ARM[NAME]}"
  --output="$HPCAB_RUN_ROOT/${ARM[NAME]}-%j.out" "$@" "$here/hpcab-arm.sbatch" "$arm")
if [ "$dry_run" -eq 1 ]; then
  echo "would run: ${cmd[*]}"
  exec "$here/hpcab-arm.sbatch" --dry-run "$arm"
fi
mkdir -p "$HPCAB_RUN_ROOT"
hpcab_log "submitting ${ARM[NAME]} on $nodes node(s): ${cmd[*]}"
exec "${cmd[@]}"
