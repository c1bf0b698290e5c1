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

// The option with the least call time among `medians` (ns; the grader passes each option's
// fastest call), in `options` order: a tie goes to
// the earlier option, so `c` (sequential, the oracle's build) wins against an equal parallel
// build. An option without a finite positive median is never chosen; empty if none has one.
std::string fastest_baseline(const std::vector<std::string>& options,
                             const std::map<std::string, double>& medians);

// How a baseline set reads to an agent: "c", or "the fastest of c, c-autopar".
std::string describe_baselines(const std::vector<std::string>& options);

}  // namespace hpcab::judge
