#!/bin/sh
# Dependency rules of the source tree (README.md, "Dependency rules"), checked on every ctest:
#   1. Only common/db.{h,cc} use the SQLite C API; everything else goes through common/db.h.
#      tests/ is exempt: tests open files raw to inspect or corrupt them.
#   2. common/ includes nothing from judge/, harness/, report/ or cli/.
#   3. harness/ talks to the judge over HTTP only: no judge/ (nor report/, cli/) headers.
#      judge/ includes nothing from harness/, report/ or cli/.
#   4. report/ reads the judge's and harness's files through their header-only schema names
#      (judge/store/schema.h, harness/schema.h) and includes nothing else of theirs.
#   5. The sandboxed runner binary (when given) links no SQLite, TLS/crypto or HTTP code.
#   6. A clone is self-contained: no file the build, the tests or the scripts use names a path
#      beside the repository (the steering folder ../shared is not there in a newcomer's clone;
#      the paper's kernel list has its copy in corpus/paper-targets.tsv). Docs may cite it.
#   7. Below the HTTP layer, nothing reaches it: judge/grade/, build/, sandbox/, host/, store/
#      and config/ never include judge/http/ or judge/views/ (a grade runs without a server).
#   8. Comments say why, not when: no comment in the code, the tests, the scripts or the build
#      files cites an issue number, which means nothing to a reader of the repository.
#   9. The sandbox knows nothing of grading: judge/sandbox/ includes only common/ and itself.
#  10. judge/store/ is the only part of the judge that talks to the database layer
#      (common/db.h), and it includes nothing else of the judge's: records are plain values.
#  11. The routes, the views and the grade pipeline's interfaces see the records
#      (judge/store/records.h), not the database: judge/http/, judge/views/ and
#      judge/grade/effects.h never include judge/store/store.h, and effects.h names builds by
#      judge/build/request.h, not the builder. Fakes of them then need no SQLite or sandbox.
# Usage: check_deps.sh SOURCE_DIR [RUNNER_BINARY]. Exit status 1 names every violation.
set -u
src=${1:?usage: check_deps.sh SOURCE_DIR [RUNNER_BINARY]}
runner=${2:-}
cd "$src" || exit 2
status=0
violation() {
  echo "dependency rule violated: $1" >&2
  [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/    /' >&2
  status=1
}
sources() { find "$@" \( -name '*.h' -o -name '*.cc' -o -name '*.c' -o -name '*.cpp' \) -type f 2>/dev/null; }

hits=$(sources common judge harness report cli | grep -v '^common/db\.\(h\|cc\)$' |
  xargs grep -nE 'sqlite3_|<sqlite3\.h>|"sqlite3\.h"' 2>/dev/null)
[ -n "$hits" ] && violation "the SQLite C API outside common/db.{h,cc} (use common/db.h)" "$hits"

hits=$(sources common | xargs grep -nE '#include[[:space:]]*"(judge|harness|report|cli)/' 2>/dev/null)
[ -n "$hits" ] && violation "common/ includes a header from a layer above it" "$hits"

hits=$(sources harness | xargs grep -nE '#include[[:space:]]*"(judge|report|cli)/' 2>/dev/null)
[ -n "$hits" ] && violation "harness/ includes judge/, report/ or cli/ headers (the judge is reached over HTTP)" "$hits"

hits=$(sources judge | xargs grep -nE '#include[[:space:]]*"(harness|report|cli)/' 2>/dev/null)
[ -n "$hits" ] && violation "judge/ includes harness/, report/ or cli/ headers" "$hits"

hits=$(sources report | xargs grep -nE '#include[[:space:]]*"(judge|harness)/' 2>/dev/null |
  grep -vE '#include[[:space:]]*"(judge/store|harness)/schema\.h"')
[ -n "$hits" ] && violation "report/ includes judge/ or harness/ headers other than their schema.h" "$hits"
hits=$(sources report | xargs grep -nE '#include[[:space:]]*"cli/' 2>/dev/null)
[ -n "$hits" ] && violation "report/ includes cli/ headers" "$hits"

hits=$(find . -type d \( -name node_modules -o -name .git -o -name 'build*' -o -name var \) -prune \
  -o -type f ! -name '*.md' -exec grep -nE '\.\./shared|shared/(SPEC|corpus-targets)' {} + 2>/dev/null |
  grep -v '^\./tests/deps/check_deps\.sh:')
[ -n "$hits" ] && violation "a file reads outside the repository (a fresh clone has nothing beside it)" "$hits"

hits=$(sources judge/grade judge/build judge/sandbox judge/host judge/store judge/config |
  xargs grep -nE '#include[[:space:]]*"judge/(http|views)/' 2>/dev/null)
[ -n "$hits" ] && violation "a part below the HTTP layer includes judge/http/ or judge/views/" "$hits"

hits=$(sources judge/sandbox | xargs grep -nE '#include[[:space:]]*"[a-z]+/' 2>/dev/null |
  grep -vE '#include[[:space:]]*"(common|judge/sandbox)/')
[ -n "$hits" ] && violation "judge/sandbox/ includes something other than common/ and itself" "$hits"

hits=$( { sources judge/http judge/views; [ -f judge/grade/effects.h ] && echo judge/grade/effects.h; } |
  xargs grep -nE '#include[[:space:]]*"judge/store/store\.h"' 2>/dev/null)
[ -n "$hits" ] && violation "the routes, views or grade interfaces include the database (use judge/store/records.h)" "$hits"
hits=$( [ -f judge/grade/effects.h ] && grep -nE '#include[[:space:]]*"judge/build/build\.h"' judge/grade/effects.h)
[ -n "$hits" ] && violation "judge/grade/effects.h includes the builder (use judge/build/request.h)" "judge/grade/effects.h:$hits"

hits=$(sources judge | grep -v '^judge/store/' | xargs grep -nE '#include[[:space:]]*"common/db\.h"' 2>/dev/null)
[ -n "$hits" ] && violation "a part of the judge other than judge/store/ uses common/db.h" "$hits"
hits=$(sources judge/store | xargs grep -nE '#include[[:space:]]*"judge/' 2>/dev/null |
  grep -vE '#include[[:space:]]*"judge/store/')
[ -n "$hits" ] && violation "judge/store/ includes another part of the judge" "$hits"

hits=$(find common judge harness report cli tests scripts deploy CMakeLists.txt Makefile \
  -path tests/fixtures -prune -o -type f \( -name '*.h' -o -name '*.cc' -o -name '*.c' \
  -o -name '*.cpp' -o -name '*.py' -o -name '*.sh' -o -name 'CMakeLists.txt' -o -name Makefile \) \
  -exec grep -nE '(//|#).*\<[Ii]ssues? [0-9]+' {} + 2>/dev/null)
[ -n "$hits" ] && violation "a comment cites an issue number (say why, not when)" "$hits"

if [ -n "$runner" ]; then
  if [ ! -x "$runner" ]; then
    violation "runner binary $runner not found"
  else
    needed=$(readelf -d "$runner" | grep NEEDED | grep -iE 'sqlite|libssl|libcrypto|curl')
    [ -n "$needed" ] && violation "the runner links a database, TLS or crypto library" "$needed"
    syms=$(nm -C "$runner" | grep -E 'sqlite3_|SSL_|EVP_|HMAC|hpcab::http_|hpcab::db::|boost::beast' | head -20)
    [ -n "$syms" ] && violation "the runner contains database, TLS, crypto or HTTP symbols" "$syms"
  fi
fi
[ "$status" -eq 0 ] && echo "dependency rules hold"
exit "$status"
