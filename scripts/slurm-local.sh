#!/usr/bin/env bash
# A private Slurm cluster on this one host, for the launcher's tests (docs/deploy.md,
# "Testing the launcher"): munged, slurmctld and three slurmd (nodes n1..n3, all
# NodeHostname=localhost, one port each, `slurmd -N nX`), with config, state, logs and the munge
# key under one folder. Debian's slurm-wlm and munge (scripts/packages.txt). Runs as root, with
# no cgroups (proctrack/linuxproc, task/none), so it also works inside a container.
#
#   scripts/slurm-local.sh start    start it (or reuse a running one) and wait until n1..n3 are idle
#   scripts/slurm-local.sh stop     cancel its jobs and stop every daemon it started
#   scripts/slurm-local.sh status   sinfo of the cluster (exit 1 when it is not running)
#   scripts/slurm-local.sh env      print `export SLURM_CONF=...` (eval it to use sbatch/srun)
#
# Environment: HPCAB_SLURM_DIR (folder; default $BUILD_DIR/slurm-local, BUILD_DIR default
# build), HPCAB_SLURM_PORT (slurmctld's port; the slurmd take the next three; default 16817),
# HPCAB_SLURM_CPUS (CPUs each node declares; default 2).
# Exit: 0 done; 77 Slurm cannot run here (not root, a package missing, a daemon that will not
# start): the reason is on stderr and in $HPCAB_SLURM_DIR/unavailable; 1 any other error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${BUILD_DIR:-$root/build}
dir=${HPCAB_SLURM_DIR:-$build/slurm-local}
port=${HPCAB_SLURM_PORT:-16817}
cpus=${HPCAB_SLURM_CPUS:-2}
nodes=(n1 n2 n3)
conf=$dir/etc/slurm.conf

log() { echo "slurm-local: $*" >&2; }

# Slurm cannot start on this host: say why, remember it for the tests, exit 77.
unavailable() {
  mkdir -p "$dir"
  echo "$*" >"$dir/unavailable"
  log "Slurm cannot start here: $*"
  exit 77
}

pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
pid_of() { [ -s "$1" ] && cat "$1" || true; }

munge_socket() {
  if [ -s "$dir/munge.socket.path" ]; then cat "$dir/munge.socket.path"; return; fi
  local s=$dir/munge/munge.socket
  # A UNIX socket path has at most 107 bytes; a deep build folder gets a short private one.
  if [ ${#s} -gt 100 ]; then s=$(mktemp -d /tmp/hpcab-munge.XXXXXX)/munge.socket; fi
  echo "$s" >"$dir/munge.socket.path"
  echo "$s"
}

running() {
  pid_alive "$(pid_of "$dir/run/slurmctld.pid")" || return 1
  local n
  for n in "${nodes[@]}"; do pid_alive "$(pid_of "$dir/run/slurmd-$n.pid")" || return 1; done
}

write_config() {
  local sock=$1 host
  host=$(hostname -s)
  mkdir -p "$dir/etc" "$dir/state/ctld" "$dir/run" "$dir/log"
  local first=$((port + 1)) last=$((port + ${#nodes[@]}))
  cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: a test cluster on one host.
ClusterName=hpcablocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$first
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state/ctld
SlurmdSpoolDir=$dir/state/slurmd-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
PlugStackConfig=$dir/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
InactiveLimit=0
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=60
MessageTimeout=10
NodeName=n[1-${#nodes[@]}] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$first-$last] CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=n[1-${#nodes[@]}] Default=YES MaxTime=INFINITE State=UP
EOF
  : >"$dir/etc/plugstack.conf"
}

# Waits until every node is idle and, given a start time (YYYY-mm-ddTHH:MM:SS), until each
# slurmd has registered since then (a restarted controller first shows the saved states).
wait_idle() {
  local since=${1:-} deadline=$((SECONDS + 45)) states="" n t fresh
  while [ $SECONDS -lt $deadline ]; do
    fresh=1
    if [ -n "$since" ]; then
      for n in "${nodes[@]}"; do
        t=$(SLURM_CONF=$conf scontrol show node -o "$n" 2>/dev/null |
          grep -o 'SlurmdStartTime=[^ ]*' | cut -d= -f2 || true)
        [[ -n "$t" && ! "$t" < "$since" ]] || fresh=0
      done
    fi
    # "idle" exactly: "idle*" is a state restored from the last run whose slurmd has not
    # registered yet.
    states=$(SLURM_CONF=$conf sinfo -h -N -o '%N %T' 2>/dev/null | sort -u | tr '\n' ' ' || true)
    local idle
    idle=$(tr ' ' '\n' <<<"$states" | grep -cx 'idle' || true)
    [ "$idle" -ge ${#nodes[@]} ] && [ "$fresh" -eq 1 ] && return 0
    sleep 0.5
  done
  log "nodes not idle after 45 s: ${states:-no answer from slurmctld}"
  SLURM_CONF=$conf scontrol show nodes 2>&1 | grep -E 'NodeName|State|Reason' >&2 || true
  return 1
}

start() {
  [ "$(id -u)" -eq 0 ] || unavailable "not root (slurmd must run as root to start jobs)"
  local b
  for b in munged slurmctld slurmd sbatch srun scontrol sinfo; do
    command -v "$b" >/dev/null 2>&1 || unavailable "$b not found (apt-get install slurm-wlm munge)"
  done
  if running; then
    log "already running ($conf)"
    wait_idle || unavailable "the running cluster has nodes that are not idle"
    return 0
  fi
  stop_daemons quiet
  rm -f "$dir/unavailable"
  local p
  for ((p = port; p <= port + ${#nodes[@]}; p++)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      log "port $p is in use (another Slurm or service): choose other ports with HPCAB_SLURM_PORT"
      exit 1
    fi
  done
  mkdir -p "$dir/munge" "$dir/run" "$dir/log"
  chmod 0700 "$dir/munge"
  local sock
  sock=$(munge_socket)
  mkdir -p "$(dirname "$sock")"
  if [ ! -s "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  fi
  chmod 0400 "$dir/munge/munge.key"
  write_config "$sock"

  munged --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" ||
    unavailable "munged did not start: $(tail -n 3 "$dir/log/munged.log" 2>/dev/null)"
  munge -n --socket="$sock" | unmunge --socket="$sock" >/dev/null 2>&1 ||
    unavailable "munge cannot encode/decode a credential through $sock"

  local since
  since=$(date +%Y-%m-%dT%H:%M:%S)
  SLURM_CONF=$conf slurmctld -i ||
    unavailable "slurmctld did not start: $(tail -n 5 "$dir/log/slurmctld.log" 2>/dev/null)"
  local n
  for n in "${nodes[@]}"; do
    SLURM_CONF=$conf slurmd -N "$n" ||
      unavailable "slurmd -N $n did not start: $(tail -n 5 "$dir/log/slurmd-$n.log" 2>/dev/null)"
  done
  if ! wait_idle "$since"; then
    unavailable "the nodes did not come up (logs in $dir/log)"
  fi
  log "up: ${nodes[*]} on localhost, slurmctld :$port ($conf)"
}

# Stops what the pid files name: SIGTERM to all at once, then SIGKILL to any still running
# after 10 s.
stop_daemons() {
  local quiet=${1:-} f pid pids=() deadline
  for f in "$dir"/run/slurmd-*.pid "$dir/run/slurmctld.pid" "$dir/run/munged.pid"; do
    [ -e "$f" ] || continue
    pid=$(pid_of "$f")
    if pid_alive "$pid"; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
    rm -f "$f"
  done
  deadline=$((SECONDS + 10))
  for pid in "${pids[@]}"; do
    while pid_alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    if pid_alive "$pid"; then
      [ -n "$quiet" ] || log "pid $pid ignored SIGTERM for 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

stop() {
  if [ -f "$conf" ] && pid_alive "$(pid_of "$dir/run/slurmctld.pid")"; then
    local jobs
    jobs=$(SLURM_CONF=$conf squeue -h -o %i 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086
      SLURM_CONF=$conf scancel $jobs 2>/dev/null || true
      local deadline=$((SECONDS + 20))
      while [ -n "$(SLURM_CONF=$conf squeue -h -o %i 2>/dev/null || true)" ] &&
        [ $SECONDS -lt $deadline ]; do sleep 0.5; done
    fi
  fi
  stop_daemons
  log "stopped ($dir)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    running || { log "not running ($dir)"; exit 1; }
    SLURM_CONF=$conf sinfo
    ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 1
    ;;
esac
