#!/usr/bin/env bash
# ctest prometheus_scrape: a real Prometheus (Debian's `prometheus`, scripts/packages.txt)
# scrapes a private judge's GET /metrics, and the PromQL queries of docs/operations.md
# ("Is the judge falling behind?") answer with numbers: the target is up, the ok grades are
# counted by verdict, the queue and slot gauges are there, the stage histogram has counts and
# histogram_quantile over its buckets is a finite number.
# Two /submit grades of tsvc_2_s000's reference: the first before Prometheus starts, the second
# while it scrapes, so the bucket counters rise inside the rate() window (one grade alone gives
# rate 0 and a NaN quantile).
# Without the prometheus binary: skipped (exit 77) with why, except on CI (CI=true), where
# that is a failure. Both processes are stopped and the temporary directory removed on exit.
# Environment: BUILD_DIR (default build), PROMETHEUS (default: prometheus on PATH).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${BUILD_DIR:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
judge_bin=$build/hpcab-judge
source_file=$root/tests/solutions/tsvc_2_s000_reference.c
say() { echo "prometheus_scrape: $*" >&2; }

prom_bin=${PROMETHEUS:-$(command -v prometheus || true)}
if [ -z "$prom_bin" ] || [ ! -x "$prom_bin" ]; then
  why="no prometheus binary (${PROMETHEUS:-none on PATH}; apt-get install prometheus: it is in"
  why+=" scripts/packages.txt)"
  if [ "${CI:-}" = "true" ]; then say "FAILED: $why, but CI=true: this test must run on CI"; exit 1; fi
  say "SKIPPED: $why"
  exit 77
fi
for f in "$judge_bin" "$source_file"; do
  [ -e "$f" ] || { say "missing $f (build hpcab-judge first)"; exit 1; }
done
command -v python3 >/dev/null || { say "python3 is required"; exit 1; }
command -v curl >/dev/null || { say "curl is required"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpcab-prometheus.XXXXXX")
chmod 711 "$tmp"  # the sandbox uid must traverse it to reach the scratch dir when run as root
judge_pid=
prom_pid=
stop() {  # stop PID: SIGTERM, then SIGKILL after 30 s
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  stop "$prom_pid"
  stop "$judge_pid"
  if [ "$rc" -ne 0 ]; then
    for log in judge.log prometheus.log; do
      [ -s "$tmp/$log" ] || continue
      say "last lines of $log:"
      tail -n 15 "$tmp/$log" >&2 || true
    done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Small grades, as the other real-judge tests use them (tests/judge/judge_process.h).
cat >"$tmp/judge.json" <<JSON
{"bandwidth_file": "$build/test-bandwidth.json", "timed_calls": 5, "hidden_variants": 2,
 "submit_fuzzed_configs": 1, "call_timeout_s": 60, "min_call_ms": 0, "hidden_presets": [],
 "track_baseline": {"loop_level_reasoning": "c"}, "report_baselines": "",
 "slot_wait_max": 0, "slot_steal_max": 0}
JSON
"$judge_bin" --config "$tmp/judge.json" --port 0 --state-dir "$tmp/state" \
  --scratch-dir "$tmp/scratch" >"$tmp/judge.out" 2>"$tmp/judge.log" &
judge_pid=$!
url=
for _ in $(seq 600); do  # up to 60 s on a loaded machine
  if IFS= read -r line <"$tmp/judge.out" 2>/dev/null && [ -n "$line" ]; then
    url=${line#listening on }
    [ "$url" != "$line" ] || { say "unexpected first stdout line of the judge: $line"; exit 1; }
    break
  fi
  kill -0 "$judge_pid" 2>/dev/null || { say "the judge exited during startup"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { say "the judge did not report its address within 60 s"; exit 1; }
judge_target=${url#http://}
echo "judge at $url"

submit() {  # one /submit of the reference; fails unless the verdict is ok
  python3 - "$url" "$source_file" <<'PY'
import json, sys, urllib.error, urllib.request
url, source = sys.argv[1:3]
body = json.dumps({"kernel": "tsvc_2_s000", "language": "c", "rank": 0,
                   "source": open(source).read()}).encode()
req = urllib.request.Request(url + "/submit", data=body, method="POST",
                             headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=120) as r:
        verdict = json.loads(r.read()).get("verdict")
except urllib.error.HTTPError as e:
    sys.exit(f"prometheus_scrape: /submit answered HTTP {e.code}: {e.read()[:500]!r}")
if verdict != "ok":
    sys.exit(f"prometheus_scrape: /submit of the reference graded {verdict!r}, not ok")
print("graded tsvc_2_s000: ok")
PY
}
submit

prom_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prom=http://127.0.0.1:$prom_port
cat >"$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: hpcab-judge
    metrics_path: /metrics
    static_configs:
      - targets: ["$judge_target"]
YAML
"$prom_bin" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prom_pid=$!
echo "prometheus at $prom (pid $prom_pid), scraping $judge_target every second"

# promcheck.py WHAT TIMEOUT_S PROMQL CONDITION: polls Prometheus (targets or an instant query)
# until CONDITION (Python, on `v`: the first result's value as a float) holds; fails naming
# WHAT and the last answer otherwise.
cat >"$tmp/promcheck.py" <<'PY'
import json, math, sys, time, urllib.parse, urllib.request
prom, what, timeout, query, condition = sys.argv[1:6]
deadline, last = time.monotonic() + float(timeout), "no answer"
while time.monotonic() < deadline:
    try:
        if query == "targets":
            with urllib.request.urlopen(prom + "/api/v1/targets", timeout=5) as r:
                targets = json.load(r)["data"]["activeTargets"]
            mine = [t for t in targets if t["labels"].get("job") == "hpcab-judge"]
            last = json.dumps([(t["health"], t.get("lastError")) for t in mine])
            if any(t["health"] == "up" for t in mine):
                print(f"ok: {what}")
                sys.exit(0)
        else:
            q = urllib.parse.urlencode({"query": query})
            with urllib.request.urlopen(prom + "/api/v1/query?" + q, timeout=5) as r:
                result = json.load(r)["data"]["result"]
            last = json.dumps(result)
            if result:
                v = float(result[0]["value"][1])
                if eval(condition, {"math": math}, {"v": v}):
                    print(f"ok: {what}: {query} = {v}")
                    sys.exit(0)
    except (OSError, ValueError, KeyError) as e:  # not listening yet, or a bad answer
        last = repr(e)
    time.sleep(0.5)
sys.exit(f"prometheus_scrape: FAILED: {what}: {query} did not satisfy '{condition}' within "
         f"{timeout} s; last answer: {last}")
PY
check() { python3 "$tmp/promcheck.py" "$prom" "$@"; }

check "Prometheus reports the judge target up" 60 targets ""
check "the judge is scraped" 30 'up{job="hpcab-judge"}' 'v == 1'
check "the ok grade is counted by verdict" 30 \
  'sum by (verdict) (hpcab_grades_total{job="hpcab-judge",verdict="ok"})' 'v >= 1'
check "the queue depth gauge is there" 30 'hpcab_queue_waiting{job="hpcab-judge"}' 'v >= 0'
check "the slot occupancy gauges are there" 30 \
  'hpcab_slots_busy{job="hpcab-judge"} / hpcab_slots{job="hpcab-judge"}' '0 <= v <= 1'

submit  # the second grade, while Prometheus scrapes: the buckets rise inside the window
check "both grades' candidate stage is in the histogram" 30 \
  'hpcab_stage_seconds_count{job="hpcab-judge",stage="candidate"}' 'v >= 2'
check "grades per hour by verdict" 30 \
  'sum by (verdict) (increase(hpcab_grades_total{job="hpcab-judge"}[1h]))' 'v > 0'
check "the candidate stage's p90 from the histogram is a number" 30 \
  'histogram_quantile(0.9, sum by (le) (rate(hpcab_stage_seconds_bucket{job="hpcab-judge",stage="candidate"}[1m])))' \
  'math.isfinite(v) and v > 0'
check "the whole grades' p50 from the histogram is a number" 30 \
  'histogram_quantile(0.5, sum by (le) (rate(hpcab_grade_seconds_bucket{job="hpcab-judge"}[1m])))' \
  'math.isfinite(v) and v > 0'
echo "prometheus_scrape: passed"
