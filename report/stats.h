// Statistics for research outputs (SPEC §8; definitions in docs/research.md): summaries
// of an arm (geometric-mean speedup with a bootstrap interval, fast_p) and intervention efficacy
// between two arms paired by kernel (exact McNemar, log-t interval and paired t-test on speedup
// ratios, Benjamini-Hochberg q-values). Pure functions; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace hpcab::report {

struct Interval {
  double lo = 0, hi = 0;
};

// Geometric mean; NaN for an empty input or any value <= 0 or non-finite.
double geometric_mean(std::span<const double> v);

// Percentile bootstrap interval of the geometric mean: `resamples` resamples with replacement
// of v (deterministic for a given seed), the (1-level)/2 and (1+level)/2 quantiles of their
// geometric means (quantiles interpolated linearly between order statistics, numpy's default).
// Index draws come from Philox (common/rng.h), so a seed gives the same interval on every
// platform. nullopt for fewer than 2 values, any value <= 0 or non-finite, resamples < 1 or a
// level outside (0, 1).
std::optional<Interval> bootstrap_geomean_ci(std::span<const double> v, int resamples = 10000,
                                             double level = 0.95, std::uint64_t seed = 1);

// fast_p (KernelBench): the fraction of attempted kernels that are solved AND have speedup > p.
// `speedups[i]` is nullopt for an unsolved kernel. 0 for an empty input.
double fast_p(std::span<const std::optional<double>> speedups, double p);

// Exact McNemar test (two-sided) on the discordant pairs: b = pairs only the control solved,
// c = pairs only the treatment solved. p = min(1, 2 * P(X <= min(b, c))), X ~ Binomial(b + c,
// 1/2); 1 when b + c = 0; NaN for a negative count.
double mcnemar_exact_p(std::int64_t b, std::int64_t c);

// Two-sided Wilcoxon signed-rank test of d (H0: symmetric about 0). Zero differences are dropped
// (Wilcoxon's zero method); on the n remaining, T+ = sum of the mid-ranks of |d| over d > 0.
// Exact null distribution when n <= 25 and there were no zeros and no ties, p = min(1,
// 2 min(P(T+ <= t), P(T+ >= t))); otherwise z = (T+ - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24 -
// sum(t^3 - t)/48) over tie groups of size t, no continuity correction, p = 2 P(Z >= |z|) (as
// scipy.stats.wilcoxon). nullopt when no difference is non-zero or one is non-finite.
std::optional<double> wilcoxon_signed_rank_p(std::span<const double> d);

// Paired comparison of ratios r_i = speedup_treatment / speedup_control on jointly solved
// kernels, on the log scale: geometric-mean ratio exp(mean(log r)), a `level` log-t interval
// exp(mean ± t_{n-1} * sd / sqrt(n)) only when n >= min_pairs, and the two-sided one-sample
// t-test of mean(log r) = 0 (the paired t-test of log speedups) when n >= 2 and sd > 0. When all
// ratios are equal (sd = 0) the interval, if n >= min_pairs, is the point [r, r] and there is no
// t-test. A ratio <= 0 or non-finite leaves n = ratios.size() with everything else NaN/nullopt.
struct RatioTest {
  int n = 0;
  double geomean_ratio = 0;       // NaN for n = 0
  std::optional<Interval> ci;     // nullopt below min_pairs
  std::optional<double> t;        // t statistic
  std::optional<double> p_value;  // two-sided
  // Wilcoxon signed-rank test on log r (two-sided; exact without ties/zeros for n <= 25,
  // normal approximation with tie correction otherwise), a distribution-free companion; see
  // wilcoxon_signed_rank_p.
  std::optional<double> wilcoxon_p;
};
RatioTest paired_log_ratio_test(std::span<const double> ratios, double level = 0.95,
                                int min_pairs = 6);

// Benjamini-Hochberg adjusted p-values (q-values), in the order of the input: with the m valid
// p-values sorted, p_(1) <= ... <= p_(m), q_(i) = min over j >= i of min(1, m p_(j) / j). An
// entry that is NaN or outside [0, 1] gets NaN and does not count in m (R's p.adjust does so
// for NA).
std::vector<double> benjamini_hochberg(std::span<const double> p);

// Spearman rank correlation of paired values (scipy.stats.spearmanr's definition): Pearson's r of
// the mid-ranks of x and of y (ties share their average rank), with the two-sided p-value of
// t = r sqrt((n-2) / ((1-r)(1+r))) under Student's t with n-2 degrees of freedom (p 0 at |r| = 1).
// nullopt for fewer than 3 pairs, unequal lengths, a non-finite value, or a constant x or y
// (r undefined; scipy answers NaN).
struct Spearman {
  int n = 0;
  double r = 0;
  double p_value = 0;
};
std::optional<Spearman> spearman(std::span<const double> x, std::span<const double> y);

// Mid-ranks (1-based, ties averaged) of v, in v's order.
std::vector<double> mid_ranks(std::span<const double> v);

}  // namespace hpcab::report
