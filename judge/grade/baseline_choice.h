// The credited baseline of a track: one named baseline, or the fastest of several (SPEC §11:
// the scientific track is credited against the fastest of `c`, `c-autopar` and
// `numba-parallel`). Pure: the grader measures, these rules parse and decide.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// A `track_baseline` value: one name ("c") or a comma-separated list ("c,c-autopar") meaning the
// fastest of them on this machine at the timed sizes. Names are trimmed; an empty item, a
// repeated name or a name outside the known baselines is an error.
Result<std::vector<std::string>> baseline_options(const std::string& spec);

// numpy, numba and numba-parallel are built from reference.py; c and c-autopar from reference.c.
bool baseline_from_python(const std::string& name);

// A sequential baseline (c, numba) is credited against a candidate run on one thread; the others
// (c-autopar, numba-parallel, numpy, whose BLAS calls use every thread) against one with all of
// the slot's threads.
bool sequential_baseline(const std::string& name);

// Numba compiles a subset of NumPy: whether a kernel's reference.py runs under njit is known
// only by running it, so the grader probes these options once per kernel and precision (a
// small checked run against the oracle) and leaves out the ones that fail.
bool baseline_needs_probe(const std::string& name);

// The options a kernel can have at all: those whose reference file exists, in `options` order.
std::vector<std::string> available_options(const std::vector<std::string>& options,
                                           bool has_reference_c, bool has_reference_py);

// The option with the least call time among `medians` (ns; the grader passes each option's
// fastest call), in `options` order: a tie goes to
// the earlier option, so `c` (sequential, the oracle's build) wins against an equal parallel
// build. An option without a finite positive median is never chosen; empty if none has one.
std::string fastest_baseline(const std::vector<std::string>& options,
                             const std::map<std::string, double>& medians);

// What a baseline's code is, for an agent ("reference.c, sequential"); a set's description
// (not one name) reads as "whichever of its options is fastest on this judge".
std::string describe_baseline_code(const std::string& name);

// How a baseline set reads to an agent: "c", or "the fastest of c, c-autopar".
std::string describe_baselines(const std::vector<std::string>& options);

}  // namespace hpcab::judge
