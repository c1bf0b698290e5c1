#!/bin/sh
# Functions short enough to read at once: no function in judge/, harness/, common/, report/ or
# cli/ is longer than MAX lines (default 120), tests and generated tables aside, unless it is
# listed in ALLOWLIST ("path name" per line), the ones not yet split. A listed function that is
# now short fails too, so the list only shrinks. Lengths come from universal-ctags (line to end).
# Usage: check_function_length.sh SOURCE_DIR [ALLOWLIST] [MAX]
set -u
src=${1:?usage: check_function_length.sh SOURCE_DIR [ALLOWLIST] [MAX]}
allow=${2:-}
max=${3:-120}
cd "$src" || exit 2
command -v ctags >/dev/null || { echo "ctags (universal-ctags) not found" >&2; exit 2; }
# "length path name" for every function; lambdas (__anon...) are named by their file only.
lengths=$(ctags --fields=+ne --kinds-C++=f -o - --languages=C++ -R common judge harness report cli |
  awk -F'\t' '{ln = ""; en = ""
    for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) ln = substr($i, 6); if ($i ~ /^end:/) en = substr($i, 5) }
    name = $1; if (name ~ /^__anon/) name = "(lambda)"
    if (ln != "" && en != "") print en - ln + 1, $2, name }')
status=0
long=$(printf '%s\n' "$lengths" | awk -v max="$max" '$1 > max { print $2, $3 }' | sort -u)
listed=$( [ -n "$allow" ] && grep -v '^#' "$allow" | grep -v '^$' | sort -u)
new=$(printf '%s\n' "$long" | while read -r f n; do
  [ -z "$f" ] && continue
  printf '%s\n' "$listed" | grep -qxF "$f $n" || echo "$f $n"
done)
if [ -n "$new" ]; then
  echo "functions over $max lines (split them into named steps):" >&2
  printf '%s\n' "$lengths" | awk -v max="$max" '$1 > max' | while read -r l f n; do
    printf '%s\n' "$new" | grep -qxF "$f $n" && echo "    $f: $n, $l lines" >&2
  done
  status=1
fi
stale=$(printf '%s\n' "$listed" | while read -r f n; do
  [ -z "$f" ] && continue
  printf '%s\n' "$long" | grep -qxF "$f $n" || echo "$f $n"
done)
if [ -n "$stale" ]; then
  echo "listed in $allow but no longer over $max lines (remove them from the list):" >&2
  printf '%s\n' "$stale" | sed 's/^/    /' >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "no unlisted function over $max lines"
exit "$status"
