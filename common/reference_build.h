// Building a kernel's reference.c: written once over the type `real`, instantiated once per
// precision of its manifest (docs/corpus.md "reference.c").
//
// A reference.c names its exported function `HPCAB_KERNEL(<id>)` and computes in `real`; its
// helpers are `static`. Every place that compiles a reference (the judge's `c` and `c-autopar`
// baselines and oracle, the corpus checker, the harness's autopar agents, resubmissions of a
// reference as a submission) goes through this header, so the command lines cannot differ:
//
//  - as a library: one small translation unit per precision (`hpcab_reference_fp64.c`, ...),
//    each the precision's prelude followed by `#include "reference.c"`, all compiled and linked
//    by one compiler invocation into one shared object exporting `<id>_fp64` / `<id>_fp32`.
//    Static helpers stay private to their unit, so the two instantiations never collide.
//  - as a submission's text (reference_as_submission): the same prelude and source for one
//    precision, in one self-contained C file, for tools that submit a reference to a judge.
//
// Submissions are not affected: a submission exports `<id>_fp64` / `<id>_fp32` itself and is
// compiled without any prelude.
#pragma once

#include <string>
#include <vector>

#include "common/dtype.h"

namespace hpcab {

// The prelude of precision `p`: includes <float.h> and <tgmath.h> (exp, sqrt, fabs, pow ... are
// type-generic, so they compute in float at fp32), undefines <complex.h>'s `I` (a common array
// name), then defines `real` (double / float), `HPCAB_KERNEL(id)` (id##_fp64 / id##_fp32),
// HPCAB_REAL_MAX / _MIN / _EPSILON (DBL_* / FLT_*) and HPCAB_FP64 or HPCAB_FP32 (1).
std::string reference_prelude(Precision p);

// One file staged next to reference.c for its build.
struct StagedSource {
  std::string name;  // relative to the build directory
  std::string text;
};

// The translation units that instantiate `source_name` (a file in the same directory) once per
// precision, in the order given. `strict` (the corpus checker) makes a float-to-double
// promotion an error in the fp32 unit (`#pragma GCC diagnostic error "-Wdouble-promotion"`
// before the source, the equivalent of `-Werror=double-promotion` for that unit alone): an
// unsuffixed literal such as `0.5 * x` would make the fp32 baseline compute in double, slower
// than it should be, which would inflate every fp32 credit.
std::vector<StagedSource> reference_units(const std::vector<Precision>& precisions,
                                          const std::string& source_name, bool strict);

// The compiler command that builds `out` from `units`: `compiler_and_flags`, then
// `-o out`, the units' names, and `-lm` (libm after the sources: a reference calling exp()
// must not depend on its host having libm loaded already).
std::vector<std::string> reference_command(std::vector<std::string> compiler_and_flags,
                                           const std::string& out,
                                           const std::vector<StagedSource>& units);

// A self-contained C file exporting `<id>_<p>` for the one precision `p`: the prelude, then
// the source under a `#line 1 "reference.c"` (so diagnostics keep the file's line numbers).
// What a tool submits to a judge (a grade runs one precision) when it resubmits a reference.
std::string reference_as_submission(const std::string& source, Precision p);

// True when `source` is in the single-source form (it names its function with HPCAB_KERNEL).
bool is_single_source_reference(const std::string& source);

}  // namespace hpcab
