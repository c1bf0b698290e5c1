#!/bin/sh
# `hpcab corpus list`'s selectors and filters against the manifests themselves: every id a filter
# prints has the filtered field, the count equals the manifests' own count, selectors narrow,
# and a filter nothing matches or a bad selector exits 2.
# Usage: corpus_list_test.sh HPCAB CORPUS_DIR PYTHON
set -eu
hpcab=$1 corpus=$2 python=$3
fail() { echo "corpus_list_test: $*" >&2; exit 1; }

# The manifests' own count of kernels with track T, level L and (optionally) tag G.
count() {
  "$python" - "$corpus" "$1" "$2" "$3" <<'PY'
import json, os, sys
root, track, level, tag = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
n = 0
for d, _, files in os.walk(root):
    if "kernel.json" in files:
        m = json.load(open(os.path.join(d, "kernel.json")))
        if m["track"] == track and m.get("level", 1) == level and (not tag or tag in m.get("tags", [])):
            n += 1
print(n)
PY
}

ids=$("$hpcab" --corpus "$corpus" corpus list --ids --track machine_learning --level 2)
[ "$(printf '%s\n' "$ids" | wc -l)" -eq "$(count machine_learning 2 '')" ] ||
  fail "--track machine_learning --level 2 printed a different number of ids than the manifests hold"
for id in $(printf '%s\n' "$ids" | head -5); do
  "$hpcab" --corpus "$corpus" corpus abi "$id" --language python >/dev/null || fail "$id is not a kernel"
done
focus=$("$hpcab" --corpus "$corpus" corpus list --ids --track loop_level_reasoning --level 1 --tag llr-focus40 | wc -l)
[ "$focus" -eq "$(count loop_level_reasoning 1 llr-focus40)" ] || fail "--tag llr-focus40 count"
one=$("$hpcab" --corpus "$corpus" corpus list --ids tsvc_2_s000 tsvc_2_s111 --level 1)
[ "$one" = "tsvc_2_s000
tsvc_2_s111" ] || fail "selectors with a filter printed '$one'"
"$hpcab" --corpus "$corpus" corpus list --dwarf dense_linear_algebra | grep -q '^gemm ' || fail "the table lacks gemm"
set +e
"$hpcab" --corpus "$corpus" corpus list --track no_such_track >/dev/null 2>&1
[ $? -eq 2 ] || fail "a filter that matches nothing must exit 2"
"$hpcab" --corpus "$corpus" corpus list no_such_kernel >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown selector must exit 2"
echo "corpus_list_test: ok"
