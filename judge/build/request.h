// A build as the grade pipeline asks for it and gets it back (judge/build/build.h's Builder makes
// it). Plain values, so the pipeline's interfaces do not pull in the builder or the sandbox.
#pragma once

#include <string>
#include <vector>

#include "common/dtype.h"

namespace hpcab::judge {

struct BuildRequest {
  std::string language = "c";  // c | cpp | fortran | python | cuda | hip
  // submission | c (sequential baseline) | c-autopar, all from C; for python: submission |
  // numpy (reference.py as it is) | numba | numba-parallel (reference.py's `function` under
  // numba.njit, and njit(parallel=True))
  std::string flavor = "submission";
  std::string source;
  std::vector<std::string> tokens;
  std::string function;  // python: the kernel's function name (the kernel id)
  // The baselines `c` and `c-autopar` (and the oracle): the precisions of the kernel's manifest,
  // at which the single-source reference.c in `source` is instantiated and linked into one
  // library (common/reference_build.h). Empty for everything else: a submission exports its
  // `<id>_<precision>` functions itself.
  std::vector<Precision> reference_precisions = {};
};

struct BuildResult {
  bool ok = false;
  bool timed_out = false;
  bool cached = false;
  // Path of the built artifact (in the cache) when ok: lib.so, or kernel.py for Python, which
  // hpcab-pyrunner imports (judge/runner/pyrunner_main.cc).
  std::string library;
  std::string log;   // compiler output, capped
  std::string hash;  // the cache key
  double seconds = 0;
  // The language's compiler is not installed on this judge (ok false, nothing ran, nothing
  // cached): `log` says which and names the setting that chooses it. Not the submission's
  // fault: build_stage answers `rejected` (reason no_toolchain), not build_error.
  bool toolchain_missing = false;
};

}  // namespace hpcab::judge
