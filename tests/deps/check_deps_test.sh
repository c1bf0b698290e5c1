#!/bin/sh
# The dependency rules can fail: each violation below, alone in an otherwise clean tree, must
# make check_deps.sh exit 1, and the clean tree must pass. Checks exit statuses, not messages.
# Usage: check_deps_test.sh CHECK_DEPS_SH
set -u
check=${1:?usage: check_deps_test.sh CHECK_DEPS_SH}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

clean_tree() {
  rm -rf "$tmp/src" && mkdir -p "$tmp/src" && cd "$tmp/src" || exit 2
  mkdir -p common judge/grade judge/http judge/sandbox judge/store judge/views harness report cli
  printf '#include "common/result.h"\n' >judge/sandbox/sandbox.cc
  printf '#include "common/db.h"\n#include "judge/store/store.h"\n' >judge/store/store.cc
  printf '#include "judge/grade/grader.h"\n#include "judge/views/task_view.h"\n' >judge/http/routes.cc
  printf '#include "judge/store/schema.h"\n' >report/observations.cc
}

expect() {  # expect STATUS WHAT FILE LINE
  clean_tree
  [ -n "$3" ] && printf '%s\n' "$4" >>"$3"
  sh "$check" . >/dev/null 2>&1
  got=$?
  if [ "$got" -ne "$1" ]; then
    echo "FAIL: $2: exit $got, expected $1"
    failures=$((failures + 1))
  fi
}

expect 0 "a clean tree" "" ""
expect 1 "grade/ reaching the HTTP layer" judge/grade/x.cc '#include "judge/http/server.h"'
expect 1 "store/ reaching a view" judge/store/x.cc '#include "judge/views/results_page.h"'
expect 1 "the sandbox reaching the grader" judge/sandbox/x.cc '#include "judge/grade/types.h"'
expect 1 "a route using the database layer" judge/http/x.cc '#include "common/db.h"'
expect 1 "the store reaching the grader" judge/store/x.cc '#include "judge/grade/request.h"'
expect 1 "report/ reading the judge's store" report/x.cc '#include "judge/store/store.h"'
expect 1 "harness/ reaching the judge" harness/x.cc '#include "judge/http/request.h"'
expect 1 "common/ reaching the judge" common/x.cc '#include "judge/config/config.h"'
expect 1 "the SQLite API outside common/db" judge/store/x.cc 'sqlite3_open(p, &db);'
expect 1 "a route holding the database" judge/http/x.h '#include "judge/store/store.h"'
expect 1 "the grade interfaces holding the database" judge/grade/effects.h '#include "judge/store/store.h"'
expect 1 "the grade interfaces holding the builder" judge/grade/effects.h '#include "judge/build/build.h"'
expect 1 "a comment citing an issue" cli/x.cc '// see iss''ue 12'
[ "$failures" -eq 0 ] && echo "every rule can fail"
exit "$failures"
