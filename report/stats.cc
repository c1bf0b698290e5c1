#include "report/stats.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

#include "common/rng.h"

namespace hpcab::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Largest n (after dropping zeros) for which the Wilcoxon test uses its exact null distribution.
constexpr std::size_t kWilcoxonExactMax = 25;

// Philox stream of the bootstrap's index draws (any fixed constant: the seed selects the run).
constexpr std::uint64_t kBootstrapStream = 0x626f6f7473747261ULL;  // "bootstra"

bool valid_positive(double x) { return std::isfinite(x) && x > 0; }

// Logs of v, or an empty vector when v is empty or holds a value that is <= 0 or non-finite.
std::vector<double> logs_of(std::span<const double> v) {
  std::vector<double> out;
  if (!std::all_of(v.begin(), v.end(), valid_positive)) return out;
  out.reserve(v.size());
  for (double x : v) out.push_back(std::log(x));
  return out;
}

double mean_of(std::span<const double> x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

// Linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default):
// position h = (n - 1) q in the sorted sample.
double quantile_sorted(const std::vector<double>& sorted, double q) {
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[lo + 1] - sorted[lo]);
}

// Exact two-sided p of the signed-rank statistic T+ = `r_plus` for n untied non-zero values:
// the counts of subsets of {1..n} by rank sum (2^n subsets, all equally likely under H0), then
// p = min(1, 2 min(P(T+ <= r_plus), P(T+ >= r_plus))). Counts stay below 2^25: exact in double.
double wilcoxon_exact_p(std::size_t n, std::size_t r_plus) {
  const std::size_t max_sum = n * (n + 1) / 2;
  std::vector<double> count(max_sum + 1, 0.0);
  count[0] = 1;
  for (std::size_t k = 1; k <= n; ++k) {
    for (std::size_t s = k * (k + 1) / 2; s >= k; --s) count[s] += count[s - k];
  }
  const double total = std::ldexp(1.0, static_cast<int>(n));
  double le = 0, ge = 0;
  for (std::size_t s = 0; s <= max_sum; ++s) {
    if (s <= r_plus) le += count[s];
    if (s >= r_plus) ge += count[s];
  }
  return std::min(1.0, 2.0 * std::min(le, ge) / total);
}

}  // namespace

double geometric_mean(std::span<const double> v) {
  const std::vector<double> logs = logs_of(v);
  if (logs.empty()) return kNaN;
  return std::exp(mean_of(logs));
}

std::optional<Interval> bootstrap_geomean_ci(std::span<const double> v, int resamples, double level,
                                             std::uint64_t seed) {
  if (v.size() < 2 || resamples < 1 || !(level > 0 && level < 1)) return std::nullopt;
  const std::vector<double> logs = logs_of(v);
  if (logs.empty()) return std::nullopt;
  const std::size_t n = logs.size();
  const double dn = static_cast<double>(n);
  std::vector<double> means(static_cast<std::size_t>(resamples));
  std::uint64_t counter = 0;  // one Philox block per index draw: (seed, stream, counter)
  for (double& m : means) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto w = philox(seed, kBootstrapStream, counter++);
      // floor(u n) for u uniform on [0, 1) with 53 bits: bias below n / 2^53.
      const auto idx = std::min(n - 1, static_cast<std::size_t>(to_unit(w[0], w[1]) * dn));
      sum += logs[idx];
    }
    m = std::exp(sum / dn);
  }
  std::sort(means.begin(), means.end());
  return Interval{quantile_sorted(means, (1 - level) / 2), quantile_sorted(means, (1 + level) / 2)};
}

double fast_p(std::span<const std::optional<double>> speedups, double p) {
  if (speedups.empty()) return 0;
  const auto fast = std::count_if(speedups.begin(), speedups.end(), [p](const auto& s) {
    return s.has_value() && *s > p;  // NaN compares false: not fast
  });
  return static_cast<double>(fast) / static_cast<double>(speedups.size());
}

double mcnemar_exact_p(std::int64_t b, std::int64_t c) {
  if (b < 0 || c < 0) return kNaN;
  if (b + c == 0) return 1;
  const boost::math::binomial_distribution<double> x(static_cast<double>(b + c), 0.5);
  return std::min(1.0, 2.0 * boost::math::cdf(x, static_cast<double>(std::min(b, c))));
}

std::optional<double> wilcoxon_signed_rank_p(std::span<const double> d) {
  if (!std::all_of(d.begin(), d.end(), [](double x) { return std::isfinite(x); })) {
    return std::nullopt;
  }
  std::vector<double> nonzero;  // zero_method "wilcox": zero differences are dropped
  for (double x : d) {
    if (x != 0) nonzero.push_back(x);
  }
  const std::size_t n = nonzero.size();
  if (n == 0) return std::nullopt;
  const bool had_zeros = n != d.size();
  std::sort(nonzero.begin(), nonzero.end(),
            [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  // Mid-ranks of |d|; r_plus sums those of the positive values; tie_term = sum of t^3 - t.
  double r_plus = 0, tie_term = 0;
  for (std::size_t lo = 0; lo < n;) {
    std::size_t hi = lo + 1;
    while (hi < n && std::fabs(nonzero[hi]) == std::fabs(nonzero[lo])) ++hi;
    const double t = static_cast<double>(hi - lo);
    const double mid_rank = 0.5 * static_cast<double>(lo + 1 + hi);
    for (std::size_t k = lo; k < hi; ++k) {
      if (nonzero[k] > 0) r_plus += mid_rank;
    }
    tie_term += t * t * t - t;
    lo = hi;
  }
  if (!had_zeros && tie_term == 0 && n <= kWilcoxonExactMax) {
    return wilcoxon_exact_p(n, static_cast<std::size_t>(r_plus));
  }
  const double dn = static_cast<double>(n);
  const double mean = dn * (dn + 1) / 4;
  const double var = dn * (dn + 1) * (2 * dn + 1) / 24 - tie_term / 48;
  if (!(var > 0)) return std::nullopt;  // unreachable for n >= 1; kept as a guard
  const double z = (r_plus - mean) / std::sqrt(var);
  const boost::math::normal_distribution<double> normal;
  return std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(normal, std::fabs(z))));
}

RatioTest paired_log_ratio_test(std::span<const double> ratios, double level, int min_pairs) {
  RatioTest r;
  r.n = static_cast<int>(ratios.size());
  r.geomean_ratio = kNaN;
  const std::vector<double> logs = logs_of(ratios);
  if (logs.empty()) return r;  // n = 0, or a ratio that is <= 0 or non-finite: nothing else
  const std::size_t n = logs.size();
  const double dn = static_cast<double>(n);
  // All logs equal: mean and sd exactly (summing could leave a rounding residue in both).
  const bool constant =
      std::all_of(logs.begin(), logs.end(), [&](double x) { return x == logs.front(); });
  const double mean = constant ? logs.front() : mean_of(logs);
  double ss = 0;
  if (!constant) {
    for (double x : logs) ss += (x - mean) * (x - mean);
  }
  const double sd = n >= 2 ? std::sqrt(ss / (dn - 1)) : 0.0;
  r.geomean_ratio = std::exp(mean);

  if (n >= 2 && static_cast<double>(n) >= static_cast<double>(min_pairs) && level > 0 &&
      level < 1) {
    const boost::math::students_t_distribution<double> t_dist(dn - 1);
    const double tq = boost::math::quantile(boost::math::complement(t_dist, (1 - level) / 2));
    const double half = tq * sd / std::sqrt(dn);
    r.ci = Interval{std::exp(mean - half), std::exp(mean + half)};
  }
  if (n >= 2 && sd > 0) {
    const boost::math::students_t_distribution<double> t_dist(dn - 1);
    const double t = mean / (sd / std::sqrt(dn));
    r.t = t;
    r.p_value =
        std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(t_dist, std::fabs(t))));
  }
  r.wilcoxon_p = wilcoxon_signed_rank_p(logs);
  return r;
}

std::vector<double> benjamini_hochberg(std::span<const double> p) {
  std::vector<double> q(p.size(), kNaN);
  std::vector<std::size_t> order;  // indices of the valid p-values, by p ascending
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] >= 0 && p[i] <= 1) order.push_back(i);  // false for NaN
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  const double m = static_cast<double>(order.size());
  double running = 1;  // min over ranks j >= i of m p_(j) / j
  for (std::size_t k = order.size(); k-- > 0;) {
    running = std::min(running, m * p[order[k]] / static_cast<double>(k + 1));
    q[order[k]] = running;
  }
  return q;
}

std::vector<double> mid_ranks(std::span<const double> v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

std::optional<Spearman> spearman(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size() || x.size() < 3) return std::nullopt;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) return std::nullopt;
  }
  const std::vector<double> rx = mid_ranks(x), ry = mid_ranks(y);
  const double mx = mean_of(rx), my = mean_of(ry);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx == 0 || syy == 0) return std::nullopt;
  Spearman s;
  s.n = static_cast<int>(x.size());
  s.r = std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
  const double df = static_cast<double>(s.n - 2);
  if (std::fabs(s.r) >= 1) {
    s.p_value = 0;
    return s;
  }
  const double t = s.r * std::sqrt(df / ((1 - s.r) * (1 + s.r)));
  const boost::math::students_t_distribution<double> t_dist(df);
  s.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(t_dist, std::fabs(t))));
  return s;
}

}  // namespace hpcab::report
