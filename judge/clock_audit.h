// The clock audit's arithmetic (SPEC §5.7; docs/grading.md "Clock audit"), separate from the
// process plumbing in grader.cc so the rule itself is unit-tested.
//
// Per timed call the judge sees `view` (its own clock, from "go" until the runner is idle again,
// less the empty round trip) and the runner reports `inner` (its CLOCK_MONOTONIC bracket). The
// overshoot is view - allowance - inner; > 0 means the runner's report is shorter than the
// judge could see, beyond what pipes and copies explain.
//
// The baseline side runs trusted reference code, so its reports are honest and its overshoot is
// the machine's scheduling noise, nothing else. Hence: the baseline's reports are never shifted,
// and the candidate's are shifted up by the part of its median overshoot that exceeds the
// baseline's median overshoot (its noise). Noise, however uneven between the sides, can then
// never inflate a speedup: it can only lower a candidate that happened to see more of it. A clock
// that lies on most calls still gains at most the allowance.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "common/stats.h"

namespace hpcab::judge {

// The shift added to every candidate report of a configuration. `baseline_overshoot` is empty
// when no baseline ran in this session (a /score against cached baseline samples): then the
// whole median overshoot of the candidate counts.
inline double candidate_shift_ns(std::span<const double> candidate_overshoot,
                                 std::span<const double> baseline_overshoot) {
  if (candidate_overshoot.empty()) return 0;
  const double noise = baseline_overshoot.empty() ? 0 : std::max(0.0, median(baseline_overshoot));
  return std::max(0.0, median(candidate_overshoot) - noise);
}

// The least candidate overshoot beyond the baseline's worst: > 0 means every candidate call
// overshot more than any call of the honest side did (the "every call lies" suspect rule).
// The worst, not the median: on a loaded host the honest side's overshoot spreads over
// milliseconds, and against its median an unchanged softmax reference was flagged on every
// call (runner 3.3 ms, judge 8.0 ms at load 8). A clock lying on every call by more than the
// honest spread is still flagged, and whatever it lies by is shifted back at the median
// (candidate_shift_ns), so a lie below this threshold earns nothing beyond the allowance.
inline double candidate_min_excess_ns(std::span<const double> candidate_overshoot,
                                      std::span<const double> baseline_overshoot) {
  if (candidate_overshoot.empty()) return 0;
  const double noise =
      baseline_overshoot.empty()
          ? 0
          : std::max(0.0, *std::max_element(baseline_overshoot.begin(), baseline_overshoot.end()));
  return *std::min_element(candidate_overshoot.begin(), candidate_overshoot.end()) - noise;
}

}  // namespace hpcab::judge
