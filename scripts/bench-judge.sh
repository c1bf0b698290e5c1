#!/usr/bin/env bash
# `make bench` (after hpcab-bench): end-to-end figures for the judge service.
#   1. latency breakdown of one /submit (gemm, C, rank 0) at presets S and M, each twice
#      (1st: cold build cache, 2nd: cached build), from the response's "timings_s";
#   2. HTTP throughput under load with wrk (64 connections, 2 threads, 10 s) on GET /health and
#      GET /task/gemm?language=c&rank=0.
# It starts a private judge on a free port with its state in a temporary directory and always
# stops it and removes the directory on exit. It prints figures and asserts nothing about them;
# it exits non-zero only when the judge cannot start or a request fails outright (no response,
# HTTP error status, wrk failure).
# Environment: BUILD_DIR (default build), BENCH_WRK_DURATION (default 10s),
# BENCH_WRK_CONNECTIONS (default 64), BENCH_WRK_THREADS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
judge_bin=$build/hpcab-judge
solution=$root/tests/solutions/gemm.c
wrk_duration=${BENCH_WRK_DURATION:-10s}
wrk_conns=${BENCH_WRK_CONNECTIONS:-64}
wrk_threads=${BENCH_WRK_THREADS:-2}
submit_timeout=600

for f in "$judge_bin" "$solution"; do
  [ -e "$f" ] || { echo "bench-judge: missing $f (run make build first)" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "bench-judge: python3 is required" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpcab-bench-judge.XXXXXX")
chmod 711 "$tmp"  # the sandbox uid must traverse it to reach the scratch dir when run as root
judge_pid=
cleanup() {
  local rc=$?
  if [ -n "$judge_pid" ] && kill -0 "$judge_pid" 2>/dev/null; then
    kill -TERM "$judge_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$judge_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$judge_pid" 2>/dev/null || true
    wait "$judge_pid" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ] && [ -s "$tmp/judge.log" ]; then
    echo "bench-judge: last judge log lines:" >&2
    tail -n 20 "$tmp/judge.log" >&2 || true
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== judge bench: starting a private judge ($judge_bin)"
"$judge_bin" --port 0 --state-dir "$tmp/state" --scratch-dir "$tmp/scratch" \
  >"$tmp/judge.out" 2>"$tmp/judge.log" &
judge_pid=$!
url=
for _ in $(seq 300); do  # up to 30 s
  if IFS= read -r line <"$tmp/judge.out" 2>/dev/null && [ -n "$line" ]; then
    url=${line#listening on }
    [ "$url" != "$line" ] || { echo "bench-judge: unexpected first stdout line: $line" >&2; exit 1; }
    break
  fi
  kill -0 "$judge_pid" 2>/dev/null || { echo "bench-judge: the judge exited during startup" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "bench-judge: the judge did not report its address within 30 s" >&2; exit 1; }
echo "judge at $url (pid $judge_pid)"
failed=0

# ---- 1. /submit latency breakdown -------------------------------------------------------------
cat >"$tmp/submit.py" <<'EOF'
# usage: submit.py URL SOLUTION PRESET LABEL TIMEOUT OUTFILE -- POST /submit, append one JSON row.
import json, sys, time, urllib.error, urllib.request
url, solution, preset, label, timeout, out = sys.argv[1:7]
body = json.dumps({"kernel": "gemm", "language": "c", "rank": 0,
                   "source": open(solution).read(), "preset": preset,
                   "run_id": "bench", "optimizer": "bench"}).encode()
req = urllib.request.Request(url + "/submit", data=body, method="POST",
                             headers={"Content-Type": "application/json"})
t0 = time.monotonic()
try:
    with urllib.request.urlopen(req, timeout=float(timeout)) as r:
        status, text = r.status, r.read().decode()
except urllib.error.HTTPError as e:
    status, text = e.code, e.read().decode(errors="replace")
except Exception as e:  # no response at all (refused, reset, timed out)
    print(f"bench-judge: /submit preset {preset} failed: {e!r}", file=sys.stderr)
    sys.exit(1)
wall = time.monotonic() - t0
if not 200 <= status < 300:
    print(f"bench-judge: /submit preset {preset}: HTTP {status}: {text[:500]}", file=sys.stderr)
    sys.exit(1)
try:
    resp = json.loads(text)
except ValueError:
    print(f"bench-judge: /submit preset {preset}: response is not JSON: {text[:500]}", file=sys.stderr)
    sys.exit(1)
with open(out, "a") as f:
    f.write(json.dumps({"preset": preset, "label": label, "wall": wall, "resp": resp}) + "\n")
print(f"  preset {preset} {label}: {wall:.2f} s, verdict {resp.get('verdict')}", flush=True)
EOF
cat >"$tmp/table.py" <<'EOF'
# usage: table.py ROWS -- prints the latency table.
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
stages = ["build", "start runners", "inputs", "candidate", "baseline", "oracle", "compare", "record"]
for r in rows:  # any stage the judge reports beyond the known ones gets its own column
    for k in (r["resp"].get("timings_s") or {}):
        if k not in stages:
            stages.append(k)
head = ["preset", "run", "wall_s"] + stages + ["other", "verdict", "speedup"]
table = []
for r in rows:
    t = r["resp"].get("timings_s") or {}
    cells = [r["preset"], r["label"], f"{r['wall']:.3f}"]
    cells += [f"{t[s]:.3f}" if isinstance(t.get(s), (int, float)) else "-" for s in stages]
    known = sum(v for v in t.values() if isinstance(v, (int, float)))
    cells.append(f"{r['wall'] - known:.3f}")  # HTTP, queueing and stages not reported
    cells.append(str(r["resp"].get("verdict", "-")))
    sp = r["resp"].get("speedup")
    cells.append(f"{sp:.3f}" if isinstance(sp, (int, float)) else "-")
    table.append(cells)
w = [max(len(x) for x in col) for col in zip(head, *table)]
for line in [head] + table:
    print("  ".join(c.rjust(n) if i >= 2 else c.ljust(n) for i, (c, n) in enumerate(zip(line, w))))
print("(seconds; stages from the response's timings_s; wall_s measured here; other = wall_s - sum of stages)")
EOF

echo
echo "== judge bench: /submit latency breakdown (gemm, c, rank 0; timeout ${submit_timeout} s each)"
rows=$tmp/rows.jsonl
: >"$rows"
# The state dir starts empty, so S's 1st run builds cold; M's 1st run builds again only if the
# build-cache key depends on the preset (its "build" stage shows which); every 2nd run is cached.
for preset in S M; do
  first="1st (new preset)"
  [ "$preset" = S ] && first="1st (cold build cache)"
  for label in "$first" "2nd (cached build)"; do
    if ! timeout $((submit_timeout + 20)) python3 "$tmp/submit.py" "$url" "$solution" "$preset" \
        "$label" "$submit_timeout" "$rows"; then
      failed=1
    fi
  done
done
if [ -s "$rows" ]; then
  python3 "$tmp/table.py" "$rows"
fi

# ---- 2. throughput under load ------------------------------------------------------------------
echo
echo "== judge bench: HTTP throughput (wrk: $wrk_conns connections, $wrk_threads threads, $wrk_duration each)"
if ! command -v wrk >/dev/null; then
  echo "bench-judge: wrk is not installed (scripts/install-deps.sh installs it)" >&2
  failed=1
else
  for path in "/health" "/task/gemm?language=c&rank=0"; do
    echo "-- GET $path"
    if ! wrk -t "$wrk_threads" -c "$wrk_conns" -d "$wrk_duration" --latency "$url$path" \
        >"$tmp/wrk.out" 2>&1; then
      echo "bench-judge: wrk failed on $path:" >&2
      cat "$tmp/wrk.out" >&2
      failed=1
      continue
    fi
    awk '
      /requests in/                { sub(/^ +/, ""); print "  " $0 }
      /^Requests\/sec:/            { print "  " $0 }
      /^ +50%/ || /^ +99%/         { p = $1; sub(/%/, "", p); print "  latency p" p ": " $2 }
      /Non-2xx or 3xx responses:/  { sub(/^ +/, ""); print "  " $0; non2xx = 1 }
      /Socket errors:/             { sub(/^ +/, ""); print "  " $0 }
      END { if (!non2xx) print "  Non-2xx or 3xx responses: 0" }
    ' "$tmp/wrk.out"
  done
fi

echo
if [ "$failed" -ne 0 ]; then
  echo "== judge bench: done, with failures (see above)"
  exit 1
fi
echo "== judge bench: done"
