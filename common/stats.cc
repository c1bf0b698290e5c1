#include "common/stats.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace hpcab {
namespace {

// Largest sample sizes for which the exact null distribution is used (header contract).
constexpr size_t kExactMax = 50;

// Number of arrangements of m x's and n y's (all C(m+n, m) of them equally likely under H0)
// with U = #{(x, y): x < y} equal to u, for u = 0..m*n.
//
// Recursion on the largest element of the pooled sample: if it is an x it is below no y
// (adds 0), if it is a y it is above all x's (adds the current number of x's), so
//   f(i, j, u) = f(i - 1, j, u) + f(i, j - 1, u - i).
// The DP sweeps j = 1..n keeping one array per i (i*j + 1 entries), updated in place with u
// descending so f(i, j - 1, u - i) is still the old value. Only additions of non-negative
// counts: no cancellation, so the small upper tail is accurate to long double rounding
// (counts reach C(100, 50) ~ 1e29, far inside the exponent range). Work O(m^2 n^2 / 2),
// memory O(m^2 n / 2): about 6e6 additions and 62k values at 50 x 50.
std::vector<long double> exact_counts(size_t m, size_t n) {
  // f[i] holds f(i, j, .) for the current j; with j = 0 every f(i, 0, 0) = 1.
  std::vector<std::vector<long double>> f(m + 1, std::vector<long double>(1, 1.0L));
  for (size_t j = 1; j <= n; ++j) {
    // f(0, j, .) stays {1}: no x's, U = 0.
    for (size_t i = 1; i <= m; ++i) {
      std::vector<long double>& cur = f[i];
      const std::vector<long double>& below = f[i - 1];  // already f(i - 1, j, .)
      cur.resize(i * j + 1, 0.0L);
      for (size_t u = i * j + 1; u-- > 0;) {
        const long double from_y = u >= i ? cur[u - i] : 0.0L;  // f(i, j - 1, u - i)
        const long double from_x = u < below.size() ? below[u] : 0.0L;
        cur[u] = from_x + from_y;
      }
    }
  }
  return std::move(f[m]);
}

// P(Z >= z) for a standard normal Z.
double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

MannWhitney mann_whitney_less(std::span<const double> x, std::span<const double> y) {
  MannWhitney r;
  const size_t m = x.size(), n = y.size();
  if (m == 0 || n == 0) return r;  // no evidence: u = 0, p = 1
  // NaN has no order; a NaN timing is a harness bug, never evidence for either side.
  auto has_nan = [](std::span<const double> v) {
    return std::any_of(v.begin(), v.end(), [](double a) { return std::isnan(a); });
  };
  if (has_nan(x) || has_nan(y)) return r;

  // Pool, sort and assign mid-ranks; collect tie group sizes for the variance correction.
  std::vector<std::pair<double, bool>> pooled;  // (value, is_x)
  pooled.reserve(m + n);
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const size_t total = m + n;
  double rank_sum_x = 0;  // sum of 1-based mid-ranks of the x values
  double tie_term = 0;    // sum over tie groups of t^3 - t
  bool ties = false;
  for (size_t lo = 0; lo < total;) {
    size_t hi = lo + 1;
    while (hi < total && pooled[hi].first == pooled[lo].first) ++hi;
    const double t = static_cast<double>(hi - lo);
    const double mid_rank = 0.5 * static_cast<double>(lo + 1 + hi);  // mean of lo+1..hi
    for (size_t k = lo; k < hi; ++k) {
      if (pooled[k].second) rank_sum_x += mid_rank;
    }
    if (hi - lo > 1) {
      ties = true;
      tie_term += t * t * t - t;
    }
    lo = hi;
  }
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  const double mn = md * nd;
  // rank_sum_x - m(m+1)/2 = #{x > y} + 0.5 #{x == y}; U of x counts the other way round.
  // Both are exact multiples of 0.5 in double for these sizes.
  r.u = mn - (rank_sum_x - 0.5 * md * (md + 1));

  if (!ties && m <= kExactMax && n <= kExactMax) {
    const std::vector<long double> counts = exact_counts(m, n);
    const size_t u_obs = static_cast<size_t>(std::llround(r.u));  // integral without ties
    long double upper = 0, all = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      all += counts[k];
      if (k >= u_obs) upper += counts[k];
    }
    r.p_value = std::min(1.0, static_cast<double>(upper / all));
    r.exact = true;
    return r;
  }

  // Normal approximation: E[U] = mn/2, Var[U] = mn/12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
  // and a 0.5 continuity correction toward the mean, P(U >= u) ~ P(Z >= (u - 0.5 - E) / sd).
  const double nn = static_cast<double>(total);
  const double var = mn / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
  if (!(var > 0)) {
    // Every value equal: U = mn/2 is the only possible outcome, so there is no evidence.
    r.p_value = 1;
    return r;
  }
  const double z = (r.u - 0.5 - 0.5 * mn) / std::sqrt(var);
  r.p_value = std::clamp(normal_upper_tail(z), 0.0, 1.0);
  return r;
}

double median(std::span<const double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  const size_t h = s.size() / 2;
  // Halves summed rather than the sum halved, so two huge values cannot overflow to infinity.
  return s.size() % 2 == 1 ? s[h] : 0.5 * s[h - 1] + 0.5 * s[h];
}

double geomean(std::span<const double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  // Mean of logs: a product of many speedups could overflow or underflow; logs cannot.
  double sum_log = 0;
  for (double a : v) {
    if (!(a > 0)) return std::numeric_limits<double>::quiet_NaN();  // also catches NaN
    sum_log += std::log(a);
  }
  return std::exp(sum_log / static_cast<double>(v.size()));
}

Credit credit_speedup(std::span<const double> candidate_ns, std::span<const double> baseline_ns,
                      double alpha) {
  Credit c;
  c.base_median = median(baseline_ns);
  c.cand_median = median(candidate_ns);
  c.ratio = c.base_median / c.cand_median;
  c.p_faster = mann_whitney_less(candidate_ns, baseline_ns).p_value;
  c.p_slower = mann_whitney_less(baseline_ns, candidate_ns).p_value;
  // P(U >= u) + P(U <= u) >= 1, so for alpha <= 0.5 at most one side can be confirmed.
  if (c.p_faster < alpha) {
    c.outcome = Credit::Outcome::kFaster;
    c.credit = c.ratio;
  } else if (c.p_slower < alpha) {
    c.outcome = Credit::Outcome::kSlower;
    c.credit = c.ratio;
  } else {
    c.outcome = Credit::Outcome::kInconclusive;
    c.credit = 1;
  }
  return c;
}

}  // namespace hpcab
