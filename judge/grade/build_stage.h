// Stage: build. The candidate (from source with the fixed flag matrix, a Python module, or a
// prebuilt library) and the references it is checked and timed against (the oracle: reference.c
// as `c` or reference.py as `numpy`; and the baseline options, reference.c with their flags or
// reference.py as it is or under Numba). A candidate that does not compile is a verdict; a
// reference that does not, or a compiler that cannot run, is the judge's fault.
#pragma once

#include <string>
#include <vector>

#include "common/manifest.h"
#include "judge/grade/effects.h"
#include "judge/grade/request.h"
#include "judge/grade/types.h"

namespace hpcab::judge {

struct BuiltLibraries {
  std::string candidate, baseline, oracle;  // .so (or .py module) paths
  std::string oracle_name;                  // "c" or "numpy"
  std::string baseline_hash;                // the baseline build's cache key
  // Every baseline option's build, in the track's order: {name, .so path, cache key}. With one
  // option `baseline` is it; with several, `baseline` stays empty until the grader has chosen.
  struct Option {
    std::string name, library, hash;
  };
  std::vector<Option> options;
  std::string content_hash;  // the candidate's
  std::string build_log;     // the candidate's compiler output
};

// nullopt when everything built; `out` is filled as far as it got. `oracle_name`: "c" or
// "numpy"; `baselines`: the kernel's available options (judge/grade/baseline_choice.h), each
// built (the one named like the oracle is the oracle's build).
MaybeFailure build_stage(Compiler& compiler, ScratchFs& files, const GradeRequest& request,
                         const Manifest& m, const std::string& oracle_name,
                         const std::vector<std::string>& baselines, BuiltLibraries& out);

// The reference built as `flavor`: reference.c as "c" or "c-autopar", reference.py as "numpy",
// "numba" or "numba-parallel"; the judge's fault when it fails.
Result<BuildResult> build_reference(Compiler& compiler, ScratchFs& files, const Manifest& m,
                                    const std::string& flavor);

}  // namespace hpcab::judge
