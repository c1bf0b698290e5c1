#!/bin/sh
# Builds the libFuzzer target (tests/fuzz/request_fuzz.cc) with clang in its own build dir,
# replays every regression input, then fuzzes.
#   scripts/fuzz.sh        fuzz until Ctrl-C (`make fuzz`)
#   scripts/fuzz.sh 60     fuzz for 60 s (the ctest request_fuzz_60s)
# New corpus entries go to $FUZZ_BUILD_DIR/corpus (default build/fuzz/corpus); a crashing input
# is written to $FUZZ_BUILD_DIR/artifacts/ and the script exits non-zero. Once the bug is fixed,
# copy that input into tests/fuzz/regressions/ so it is replayed by every run from then on.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-0}
build=${FUZZ_BUILD_DIR:-build/fuzz}
jobs=${FUZZ_BUILD_JOBS:-2}

cmake -S . -B "$build" -G Ninja -DHPCAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j "$jobs" --target request_fuzz
fuzzer="$build/request_fuzz"
mkdir -p "$build/corpus" "$build/artifacts"

# Every input that once crashed the target must still run clean (libFuzzer runs each file given
# as an argument once and fails on the first crash).
regressions=$(find tests/fuzz/regressions -type f ! -name '*.md' | sort)
if [ -n "$regressions" ]; then
  # shellcheck disable=SC2086  # one argument per file; the names have no spaces
  if ! "$fuzzer" $regressions >"$build/regressions.log" 2>&1; then
    cat "$build/regressions.log"
    echo "fuzz.sh: a regression input in tests/fuzz/regressions/ fails again" >&2
    exit 1
  fi
  echo "fuzz.sh: $(echo "$regressions" | wc -l) regression inputs replayed clean"
fi

# -max_len: room for a request at the target's header (2 KiB) and body (8 KiB) limits.
set -- -max_len=12288 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$build/artifacts/"
if [ "$seconds" -eq 0 ]; then exec "$fuzzer" "$@" "$build/corpus" tests/fuzz/corpus; fi

# Bounded run (ctest): the full log in $build/fuzz.log, its summary (or the crash) here.
status=0
"$fuzzer" "$@" -max_total_time="$seconds" "$build/corpus" tests/fuzz/corpus \
  >"$build/fuzz.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 60 "$build/fuzz.log"
  echo "fuzz.sh: the fuzzer failed (exit $status); the input is in $build/artifacts/" >&2
  exit "$status"
fi
grep -E '^(#[0-9]+[[:space:]]+DONE|Done |stat::)' "$build/fuzz.log" || true
