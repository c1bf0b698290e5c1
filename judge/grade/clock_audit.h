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
// and the candidate's, when they are significantly larger than the baseline's, are shifted up by
// the part of its median overshoot that exceeds the baseline's median overshoot (its noise). Noise,
// however uneven between the sides, can then never inflate a speedup: it can only lower a candidate
// that happened to see more of it. A clock that lies on most calls still gains at most the
// allowance.
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
//
// With a baseline, only a candidate whose overshoots are larger than the baseline's (one-sided
// Mann-Whitney at `alpha`) is shifted. Without that test the rule was biased against honest
// code: two samples of the same noise differ in median by chance, and max(0, difference)
// charged every such difference in one direction. Measured on a Zen 1 VM (2026-12-03), the
// unchanged tsvc_2_s000 reference was shifted in 13 to 19 of 24 configurations, by up to 1.2 ms
// on 5.5 ms calls, and credited a median 0.97 to 0.98 against itself (1.00 to 1.02 without the
// shift). A clock that lies on most calls by more than the noise's spread is still detected
// and shifted by its median excess.
inline double candidate_shift_ns(std::span<const double> candidate_overshoot,
                                 std::span<const double> baseline_overshoot, double alpha = 0.01) {
  if (candidate_overshoot.empty()) return 0;
  if (baseline_overshoot.empty()) return std::max(0.0, median(candidate_overshoot));
  if (mann_whitney_less(baseline_overshoot, candidate_overshoot).p_value >= alpha) return 0;
  const double noise = std::max(0.0, median(baseline_overshoot));
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
