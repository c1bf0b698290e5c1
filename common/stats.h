// Statistics for timing comparisons (SPEC §5.8): the one-sided Mann-Whitney U test, medians,
// geometric means and the speedup credit rule.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace hpcab {

struct MannWhitney {
  double u = 0;        // U statistic of the first sample: #{(x, y): x < y} + 0.5 #{x == y}
  double p_value = 1;  // one-sided: P(U >= observed) under H0, i.e. evidence that x < y
  bool exact = false;  // exact null distribution (small samples, no ties) vs normal approx
};

// H1: values in `x` tend to be smaller than values in `y` (e.g. x = candidate times,
// y = baseline times: "the candidate is faster"). Exact distribution when both samples have
// at most 50 values and there are no ties; otherwise the normal approximation with tie
// correction and continuity correction. Empty samples give p = 1.
MannWhitney mann_whitney_less(std::span<const double> x, std::span<const double> y);

double median(std::span<const double> v);  // NaN for empty input
// NaN for empty input or any non-positive value.
double geomean(std::span<const double> v);

struct Credit {
  double base_median = 0, cand_median = 0;
  double ratio = 0;     // base_median / cand_median (raw speedup)
  double p_faster = 1;  // one-sided p that the candidate is faster
  double p_slower = 1;  // one-sided p that the candidate is slower
  double credit = 1;    // ratio when confirmed faster or slower at alpha, else 1
  enum class Outcome { kFaster, kSlower, kInconclusive } outcome = Outcome::kInconclusive;
};

// SPEC §5.8 for one size configuration: confirmed faster (p_faster < alpha) -> ratio;
// confirmed slower (p_slower < alpha) -> ratio (< 1); otherwise 1.
Credit credit_speedup(std::span<const double> candidate_ns, std::span<const double> baseline_ns,
                      double alpha = 0.1);

}  // namespace hpcab
