#!/usr/bin/env bash
# Submits an arm as a Slurm job, asking for exactly the nodes its arm file names
# (INFERENCE_NODES + AGENT_NODES + JUDGE_NODES). Operator guide: docs/deploy.md.
#
#   deploy/slurm/submit.sh [--dry-run] ARM [sbatch options...]
#
#   --dry-run   print the sbatch command and the plan (roles on placeholder nodes, URLs,
#               commands); submit nothing
#   sbatch options are passed on after --nodes, e.g. --time=12:00:00 --partition=gpu --wait
#
# Environment (exported to the job): HPCAB_BIN_DIR (default <checkout>/build), HPCAB_RUN_ROOT
# (default <checkout>/var/slurm; each job writes <arm>-<job id>/ there and the job's output to
# <arm>-<job id>.out). Exit: sbatch's (with --wait, the job's), or 2 for a bad arm file.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export HPCAB_ROOT=${HPCAB_ROOT:-$(cd "$here/../.." && pwd)}
export HPCAB_BIN_DIR=${HPCAB_BIN_DIR:-$HPCAB_ROOT/build}
HPCAB_BIN_DIR=$(realpath -m "$HPCAB_BIN_DIR")
export HPCAB_RUN_ROOT=${HPCAB_RUN_ROOT:-$HPCAB_ROOT/var/slurm}
HPCAB_RUN_ROOT=$(realpath -m "$HPCAB_RUN_ROOT")
# shellcheck source=deploy/slurm/lib.sh
source "$here/lib.sh"

dry_run=0
if [ "${1:-}" = --dry-run ]; then
  dry_run=1
  shift
fi
if [ $# -lt 1 ] || [ "${1:0:1}" = - ]; then
  sed -n '5,10p' "$0" | sed 's/^# *//' >&2
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
