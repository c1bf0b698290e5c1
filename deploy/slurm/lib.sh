# Helpers of the Slurm arm launcher (hpcab-arm.sbatch, submit.sh), sourced by both; bash >= 5.1.
# docs/deploy.md describes what they do for an operator.
# shellcheck shell=bash

hpcab_log() { printf '%s hpcab-arm: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# Reads the arm through `hpcab-harness launch-env` (the harness's own parser: the same
# validation and the same defaults as the harness) into the associative array ARM.
# Usage: hpcab_read_arm HARNESS_BIN ARM_FILE; returns 2 with the parser's message on error.
declare -gA ARM=()
hpcab_read_arm() {
  local harness=$1 file=$2 out line
  if ! out=$("$harness" launch-env "$file" 2>&1); then
    hpcab_log "the arm file does not load: $out"
    return 2
  fi
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    ARM[${line%%=*}]=${line#*=}
  done <<<"$out"
  # The judge count submit.sh chose (--judges N|auto) replaces the arm's JUDGE_NODES.
  if [ -n "${HPCAB_JUDGE_NODES:-}" ]; then
    if ! [[ $HPCAB_JUDGE_NODES =~ ^[1-9][0-9]{0,3}$ ]]; then
      hpcab_log "HPCAB_JUDGE_NODES=$HPCAB_JUDGE_NODES: expected a whole number from 1 to 9999"
      return 2
    fi
    ARM[JUDGE_NODES]=$HPCAB_JUDGE_NODES
  fi
}

# The judges a campaign needs (docs/deploy.md "Sizing a campaign"; scripts/bench-throughput.py
# --sizing computes the same): ceil(AGENTS x SUBMITS_PER_AGENT_HOUR / (GRADES_PER_JUDGE_HOUR x
# UTILISATION)), at least 1. Prints the count; returns 2 with a message on a bad number.
# Usage: hpcab_auto_judges AGENTS SUBMITS_PER_AGENT_HOUR GRADES_PER_JUDGE_HOUR UTILISATION
hpcab_auto_judges() {
  local agents=$1 rate=$2 gph=$3 util=$4 name value
  local number='^([0-9]+([.][0-9]*)?|[.][0-9]+)$'
  for name in agents rate gph util; do
    value=${!name}
    if ! [[ $value =~ $number ]]; then
      hpcab_log "judge sizing: $name '$value' is not a non-negative number"
      return 2
    fi
  done
  awk -v a="$agents" -v r="$rate" -v g="$gph" -v u="$util" 'BEGIN {
    if (a < 1 || r <= 0 || g <= 0 || u <= 0 || u > 1) exit 1
    x = a * r / (g * u); n = int(x); if (x - n > 1e-9) n++; if (n < 1) n = 1
    print n }' || {
    hpcab_log "judge sizing: need agents >= 1, submits per agent-hour > 0, grades per judge-hour > 0 and a utilisation in (0, 1] (got $agents, $rate, $gph, $util)"
    return 2
  }
}

# The network address of a Slurm node: its NodeAddr (what slurmd talks on), else its name.
hpcab_node_addr() {
  local node=$1 addr=""
  if command -v scontrol >/dev/null 2>&1; then
    addr=$(scontrol show node -o "$node" 2>/dev/null | grep -o 'NodeAddr=[^ ]*' | cut -d= -f2 || true)
  fi
  echo "${addr:-$node}"
}

# Splits HOSTS (global array, allocation order) into the roles, in the order inference, agent,
# judge, and derives every URL. Sets INFERENCE_HOSTS, AGENT_HOSTS, JUDGE_HOSTS, JUDGE_URL_LIST,
# INFERENCE_URL_LIST (arrays) and JUDGE_URLS_CSV, INFERENCE_URLS_CSV.
hpcab_split_roles() {
  local ni=${ARM[INFERENCE_NODES]} na=${ARM[AGENT_NODES]} nj=${ARM[JUDGE_NODES]} i addr
  INFERENCE_HOSTS=("${HOSTS[@]:0:ni}")
  AGENT_HOSTS=("${HOSTS[@]:ni:na}")
  JUDGE_HOSTS=("${HOSTS[@]:ni+na:nj}")
  JUDGE_URL_LIST=()
  for i in "${!JUDGE_HOSTS[@]}"; do
    addr=$(hpcab_node_addr "${JUDGE_HOSTS[$i]}")
    JUDGE_URL_LIST+=("http://$addr:$((ARM[JUDGE_PORT] + i))")
  done
  INFERENCE_URL_LIST=()
  if [ "$ni" -gt 0 ]; then
    for i in "${!INFERENCE_HOSTS[@]}"; do
      addr=$(hpcab_node_addr "${INFERENCE_HOSTS[$i]}")
      INFERENCE_URL_LIST+=("http://$addr:$((ARM[INFERENCE_PORT] + i))")
    done
  elif [ -n "${ARM[INFERENCE_URLS]}" ]; then
    IFS=, read -r -a INFERENCE_URL_LIST <<<"${ARM[INFERENCE_URLS]}"
  fi
  JUDGE_URLS_CSV=$(IFS=,; echo "${JUDGE_URL_LIST[*]}")
  INFERENCE_URLS_CSV=$(IFS=,; echo "${INFERENCE_URL_LIST[*]}")
}

# INFERENCE_COMMAND with its placeholders filled for inference server INDEX on HOST:PORT, each
# value shell-quoted (the command runs under bash -c on the inference node).
hpcab_inference_command() {
  local index=$1 host=$2 port=$3 cmd=${ARM[INFERENCE_COMMAND]}
  cmd=${cmd//\{model\}/$(printf '%q' "${ARM[MODEL]}")}
  cmd=${cmd//\{host\}/$(printf '%q' "$host")}
  cmd=${cmd//\{port\}/$(printf '%q' "$port")}
  cmd=${cmd//\{index\}/$(printf '%q' "$index")}
  echo "$cmd"
}

# The harness of agent node INDEX (0-based; one per agent node): sets HARNESS_DB (its episode
# database, RUN_DIR/harness-INDEX.db) and HARNESS_ARGS (the `hpcab-harness` arguments, without
# HPCAB_HARNESS_ARGS). Node i of A runs the episodes with seq % A == i (--shard i/A) with the
# arm's workers i*WORKERS .. i*WORKERS+WORKERS-1 (--worker-offset), so A nodes pin workers
# exactly as one harness with A x WORKERS workers would. Needs the globals of
# hpcab_split_roles and RUN_DIR, ARM_FILE.
hpcab_harness_args() {
  local i=$1
  HARNESS_DB=$RUN_DIR/harness-$i.db
  HARNESS_ARGS=(run "$ARM_FILE" --db "$HARNESS_DB" --workspaces "$RUN_DIR/episodes"
    --shard "$i/${ARM[AGENT_NODES]}" --worker-offset "$((i * ARM[WORKERS]))"
    --judge-urls "$JUDGE_URLS_CSV" --progress-interval "${HPCAB_PROGRESS_INTERVAL_S:-30}")
  [ -z "$INFERENCE_URLS_CSV" ] || HARNESS_ARGS+=(--inference-urls "$INFERENCE_URLS_CSV")
}

# The base URL of an inference endpoint for /v1/models: without a trailing / or /v1.
hpcab_models_url() {
  local u=${1%/}
  u=${u%/v1}
  echo "$u/v1/models"
}

# The plan: nodes per role, URLs, commands. Needs the globals of hpcab_split_roles and
# BIN_DIR, RUN_DIR, ARM_FILE.
hpcab_print_plan() {
  local i first last na=${ARM[AGENT_NODES]} w=${ARM[WORKERS]}
  echo "arm ${ARM[NAME]} ($ARM_FILE): ${ARM[KERNEL_COUNT]} kernel(s), $w worker(s) per agent node x $na agent node(s) = $((w * na)) concurrent episodes, agent ${ARM[AGENT]}"
  echo "nodes: ${ARM[INFERENCE_NODES]} inference + ${ARM[AGENT_NODES]} agent + ${ARM[JUDGE_NODES]} judge = ${#HOSTS[@]}: ${HOSTS[*]}"
  echo "run directory: $RUN_DIR"
  for i in "${!JUDGE_HOSTS[@]}"; do
    echo "judge rank $i on ${JUDGE_HOSTS[$i]}: ${JUDGE_URL_LIST[$i]} (state $RUN_DIR/judge-$i, key $RUN_DIR/secret.key${ARM[JUDGE_CONFIG]:+, config ${ARM[JUDGE_CONFIG]}})"
  done
  if [ "${ARM[INFERENCE_NODES]}" -gt 0 ]; then
    for i in "${!INFERENCE_HOSTS[@]}"; do
      echo "inference $i on ${INFERENCE_HOSTS[$i]}: ${INFERENCE_URL_LIST[$i]}: $(hpcab_inference_command "$i" 0.0.0.0 "$((ARM[INFERENCE_PORT] + i))")"
    done
  elif [ ${#INFERENCE_URL_LIST[@]} -gt 0 ]; then
    echo "inference: external ${INFERENCE_URLS_CSV}"
  else
    echo "inference: none (agent ${ARM[AGENT]} needs no model)"
  fi
  for i in "${!AGENT_HOSTS[@]}"; do
    hpcab_harness_args "$i"
    first=$((i * w))
    last=$((first + w - 1))
    echo "harness-$i on ${AGENT_HOSTS[$i]} (episodes with seq % $na == $i, workers $first..$last): $BIN_DIR/hpcab-harness ${HARNESS_ARGS[*]}"
  done
  echo "  worker w (0..$((w * na - 1)), numbered across the agent nodes) -> judge rank w % ${ARM[JUDGE_NODES]}${INFERENCE_URLS_CSV:+, inference w % ${#INFERENCE_URL_LIST[@]}}"
  echo "wait: judges /health up to ${ARM[JUDGE_STARTUP_S]} s, inference /v1/models up to ${ARM[INFERENCE_STARTUP_S]} s"
  echo "end: merge into $RUN_DIR/judge.db, summary in $RUN_DIR/summary.txt, min coverage ${ARM[MIN_COVERAGE]}"
}
