#include "common/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace hpcab {
namespace {

// Splits the ranks 0..m+n-1 into x (bits set in `mask`) and y (bits clear): one arrangement of
// the pooled, tie-free sample.
void split(uint32_t mask, int total, std::vector<double>& x, std::vector<double>& y) {
  x.clear();
  y.clear();
  for (int r = 0; r < total; ++r) ((mask >> r) & 1u ? x : y).push_back(static_cast<double>(r));
}

double brute_u(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0;
  for (double a : x) {
    for (double b : y) u += a < b ? 1.0 : (a == b ? 0.5 : 0.0);
  }
  return u;
}

// Exact P(U >= u) for m = n = 3 and m = n = 5 from published tables (one-sided).
TEST(MannWhitneyTest, KnownTableValuesSmall) {
  // m = n = 3: C(6, 3) = 20 arrangements; U = 9 only when all x are below all y.
  const std::vector<double> lo3 = {1, 2, 3}, hi3 = {4, 5, 6};
  MannWhitney r = mann_whitney_less(lo3, hi3);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 9);
  EXPECT_NEAR(r.p_value, 1.0 / 20, 1e-15);
  // U = 8: swap the largest x with the smallest y.
  r = mann_whitney_less(std::vector<double>{1, 2, 4}, std::vector<double>{3, 5, 6});
  EXPECT_DOUBLE_EQ(r.u, 8);
  EXPECT_NEAR(r.p_value, 2.0 / 20, 1e-15);

  // m = n = 5: the one-sided 5% lower critical value is 4, i.e. P(U <= 4) = 12/252 <= 0.05 and
  // P(U <= 5) = 19/252 > 0.05; by symmetry of the null, P(U >= 21) and P(U >= 20).
  r = mann_whitney_less(std::vector<double>{1, 2, 3, 4, 9}, std::vector<double>{5, 6, 7, 8, 10});
  EXPECT_DOUBLE_EQ(r.u, 21);
  EXPECT_NEAR(r.p_value, 12.0 / 252, 1e-15);
  EXPECT_LE(r.p_value, 0.05);
  r = mann_whitney_less(std::vector<double>{1, 2, 3, 4, 10}, std::vector<double>{5, 6, 7, 8, 9});
  EXPECT_DOUBLE_EQ(r.u, 20);
  EXPECT_NEAR(r.p_value, 19.0 / 252, 1e-15);
  EXPECT_GT(r.p_value, 0.05);
}

// Every split of m + n distinct values for m, n <= 6: U matches the pairwise count and p matches
// the tail of the enumerated null distribution.
TEST(MannWhitneyTest, ExactMatchesBruteForceEnumeration) {
  std::vector<double> x, y;
  for (int m = 1; m <= 6; ++m) {
    for (int n = 1; n <= 6; ++n) {
      const int total = m + n;
      std::map<int, double> hist;  // U -> number of arrangements
      double count = 0;
      for (uint32_t mask = 0; mask < (1u << total); ++mask) {
        if (__builtin_popcount(mask) != m) continue;
        split(mask, total, x, y);
        hist[static_cast<int>(brute_u(x, y))] += 1;
        count += 1;
      }
      for (uint32_t mask = 0; mask < (1u << total); ++mask) {
        if (__builtin_popcount(mask) != m) continue;
        split(mask, total, x, y);
        const MannWhitney r = mann_whitney_less(x, y);
        const double u = brute_u(x, y);
        ASSERT_TRUE(r.exact);
        ASSERT_DOUBLE_EQ(r.u, u) << "m=" << m << " n=" << n << " mask=" << mask;
        double tail = 0;
        for (const auto& [k, c] : hist) {
          if (k >= u) tail += c;
        }
        ASSERT_NEAR(r.p_value, tail / count, 1e-14) << "m=" << m << " n=" << n << " u=" << u;
      }
    }
  }
}

// Without ties, P(U >= u) + P(U' >= mn - u) = 1 + P(U = u) where U' is U with the roles
// swapped; with the normal approximation the sum is at least 1 (continuity correction).
TEST(MannWhitneyTest, SymmetryOfBothDirections) {
  std::vector<double> x, y;
  const int m = 4, n = 5, total = m + n;
  std::map<int, double> hist;
  double count = 0;
  for (uint32_t mask = 0; mask < (1u << total); ++mask) {
    if (__builtin_popcount(mask) != m) continue;
    split(mask, total, x, y);
    hist[static_cast<int>(brute_u(x, y))] += 1;
    count += 1;
  }
  for (uint32_t mask = 0; mask < (1u << total); ++mask) {
    if (__builtin_popcount(mask) != m) continue;
    split(mask, total, x, y);
    const MannWhitney a = mann_whitney_less(x, y), b = mann_whitney_less(y, x);
    EXPECT_DOUBLE_EQ(a.u + b.u, m * n);
    EXPECT_NEAR(a.p_value + b.p_value, 1 + hist[static_cast<int>(a.u)] / count, 1e-14);
  }
  // Normal path (ties present).
  const std::vector<double> tx = {1, 2, 2, 3, 7, 7, 9}, ty = {2, 3, 4, 5, 7, 8};
  const double sum = mann_whitney_less(tx, ty).p_value + mann_whitney_less(ty, tx).p_value;
  EXPECT_GE(sum, 1.0);
  EXPECT_LT(sum, 1.2);
}

// The most extreme arrangement at the size limit: p = 1 / C(100, 50), a 1e-29 tail that the
// addition-only recursion must keep to full relative precision.
TEST(MannWhitneyTest, ExactAtSizeLimitExtremeTail) {
  std::vector<double> x, y;
  for (int i = 0; i < 50; ++i) {
    x.push_back(i);
    y.push_back(100 + i);
  }
  MannWhitney r = mann_whitney_less(x, y);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 2500);
  EXPECT_NEAR(r.p_value / 9.911653021418339e-30, 1.0, 1e-12);
  r = mann_whitney_less(y, x);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
  // One more value in either sample switches to the normal approximation.
  x.push_back(50.5);
  r = mann_whitney_less(x, y);
  EXPECT_FALSE(r.exact);
  EXPECT_LT(r.p_value, 1e-15);
}

// m = n = 40: the library's normal approximation (forced by one within-sample tie, which does
// not change U) agrees with its exact distribution on the same U to within 0.01, over a range
// of U values from the far tail to the centre.
TEST(MannWhitneyTest, NormalApproximationCloseToExactAt40) {
  std::mt19937_64 gen(12345);  // raw engine output is fully specified by the standard
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // x shifted by a trial-dependent amount relative to y, in integer units * 10 so that
    // there is room for the tie trick below.
    std::vector<double> x, y;
    for (int i = 0; i < 40; ++i) {
      x.push_back(10.0 * static_cast<double>(gen() % 1000000) + 1.0);
      y.push_back(10.0 * static_cast<double>(gen() % 1000000 + trial * 12000) + 2.0);
    }
    // Ensure x[0] is nowhere tied; x[1] becomes x[0] + 0.25 (untied) or x[0] (tied): no y lies
    // in between (all y are 2 mod 10, all x are 1 mod 10), so U is identical in both.
    std::vector<double> untied = x, tied = x;
    untied[1] = x[0] + 0.25;
    tied[1] = x[0];
    const MannWhitney exact = mann_whitney_less(untied, y);
    const MannWhitney approx = mann_whitney_less(tied, y);
    if (!exact.exact) continue;  // random draw produced an accidental tie elsewhere
    ASSERT_FALSE(approx.exact);
    ASSERT_DOUBLE_EQ(exact.u, approx.u);
    EXPECT_NEAR(exact.p_value, approx.p_value, 0.01) << "u=" << exact.u;
    ++compared;
  }
  EXPECT_GE(compared, 30);
}

// Tied data: hand computation of the tie-corrected normal approximation (what
// scipy.stats.mannwhitneyu(x, y, alternative='less', method='asymptotic') gives).
//   x = {1, 2, 2, 3}, y = {2, 3, 4, 5}: U = 4 + 3.5 + 3.5 + 2.5 = 13.5, mn = 16, N = 8;
//   tie groups {2,2,2} and {3,3}: sum(t^3 - t) = 24 + 6 = 30;
//   Var = 16/12 * (9 - 30/56) = 11.285714...; z = (13.5 - 0.5 - 8) / sqrt(Var) = 1.488351;
//   p = 1 - Phi(z) = 0.0683291.
// Reverse direction: U = 2.5, z = (2.5 - 0.5 - 8) / sqrt(Var), p = 0.9629521.
TEST(MannWhitneyTest, TiesUseCorrectedNormalApproximation) {
  const std::vector<double> x = {1, 2, 2, 3}, y = {2, 3, 4, 5};
  MannWhitney r = mann_whitney_less(x, y);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 13.5);
  EXPECT_NEAR(r.p_value, 0.06832912386907376, 1e-12);
  r = mann_whitney_less(y, x);
  EXPECT_DOUBLE_EQ(r.u, 2.5);
  EXPECT_NEAR(r.p_value, 0.9629521255093261, 1e-12);
}

TEST(MannWhitneyTest, IdenticalSamplesGiveNoEvidence) {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(1000 + 7 * i);
  const MannWhitney r = mann_whitney_less(v, v);
  EXPECT_DOUBLE_EQ(r.u, 200);
  EXPECT_NEAR(r.p_value, 0.5, 0.05);
  EXPECT_GE(r.p_value, 0.5);  // continuity correction keeps the centre above one half
  // Every value equal: zero variance, U = mn/2 is certain, p = 1.
  const std::vector<double> same(10, 3.0);
  EXPECT_DOUBLE_EQ(mann_whitney_less(same, same).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_less(same, same).u, 50);
}

TEST(MannWhitneyTest, EmptyAndNanInputsGivePOne) {
  const std::vector<double> empty, some = {1, 2, 3};
  EXPECT_DOUBLE_EQ(mann_whitney_less(empty, some).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_less(some, empty).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_less(empty, empty).p_value, 1.0);
  const std::vector<double> with_nan = {0.5, NAN};
  EXPECT_DOUBLE_EQ(mann_whitney_less(with_nan, some).p_value, 1.0);
}

TEST(MannWhitneyTest, SingleValues) {
  // m = n = 1: two equally likely orders.
  MannWhitney r = mann_whitney_less(std::vector<double>{1}, std::vector<double>{2});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 1);
  EXPECT_DOUBLE_EQ(r.p_value, 0.5);
  r = mann_whitney_less(std::vector<double>{2}, std::vector<double>{1});
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
}

TEST(StatsTest, Median) {
  EXPECT_TRUE(std::isnan(median(std::vector<double>{})));
  EXPECT_DOUBLE_EQ(median(std::vector<double>{7}), 7);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{5, 5}), 5);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{-1, 1}), 0);
  // Does not overflow for two huge middle values.
  EXPECT_DOUBLE_EQ(median(std::vector<double>{1e308, 1.7e308}), 1.35e308);
}

TEST(StatsTest, Geomean) {
  EXPECT_TRUE(std::isnan(geomean(std::vector<double>{})));
  EXPECT_TRUE(std::isnan(geomean(std::vector<double>{1, 0})));
  EXPECT_TRUE(std::isnan(geomean(std::vector<double>{1, -2})));
  EXPECT_TRUE(std::isnan(geomean(std::vector<double>{1, NAN})));
  EXPECT_DOUBLE_EQ(geomean(std::vector<double>{5}), 5);
  EXPECT_NEAR(geomean(std::vector<double>{2, 8}), 4, 1e-14);
  EXPECT_NEAR(geomean(std::vector<double>{1, 10, 100}), 10, 1e-13);
  EXPECT_NEAR(geomean(std::vector<double>{0.5, 2}), 1, 1e-15);
  // A product that would overflow a double.
  EXPECT_NEAR(geomean(std::vector<double>{1e200, 1e200, 1e200}) / 1e200, 1, 1e-12);
}

// Timing-like samples: base value plus deterministic jitter from the raw engine.
std::vector<double> samples(double base, double jitter, int count, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> v;
  for (int i = 0; i < count; ++i) {
    v.push_back(base + jitter * static_cast<double>(gen() % 10000) / 10000.0);
  }
  return v;
}

TEST(CreditTest, ClearlyFasterCreditsRatio) {
  const auto cand = samples(1000, 50, 20, 1), base = samples(2000, 100, 20, 2);
  const Credit c = credit_speedup(cand, base);
  EXPECT_EQ(c.outcome, Credit::Outcome::kFaster);
  EXPECT_LT(c.p_faster, 0.1);
  EXPECT_GT(c.p_slower, 0.9);
  EXPECT_DOUBLE_EQ(c.cand_median, median(cand));
  EXPECT_DOUBLE_EQ(c.base_median, median(base));
  EXPECT_DOUBLE_EQ(c.ratio, c.base_median / c.cand_median);
  EXPECT_DOUBLE_EQ(c.credit, c.ratio);
  EXPECT_GT(c.credit, 1.8);
  EXPECT_LT(c.credit, 2.2);
}

TEST(CreditTest, ClearlySlowerCreditsRatioBelowOne) {
  const auto cand = samples(3000, 100, 20, 3), base = samples(1000, 50, 20, 4);
  const Credit c = credit_speedup(cand, base);
  EXPECT_EQ(c.outcome, Credit::Outcome::kSlower);
  EXPECT_LT(c.p_slower, 0.1);
  EXPECT_GT(c.p_faster, 0.9);
  EXPECT_DOUBLE_EQ(c.credit, c.ratio);
  EXPECT_LT(c.credit, 0.4);
}

TEST(CreditTest, SameDistributionIsInconclusive) {
  // Interleaved: candidate 1, 3, ..., 39 and baseline 2, 4, ..., 40 (U = 210 of 400).
  std::vector<double> cand, base;
  for (int i = 0; i < 20; ++i) {
    cand.push_back(1000 + 2 * i + 1);
    base.push_back(1000 + 2 * i + 2);
  }
  Credit c = credit_speedup(cand, base);
  EXPECT_EQ(c.outcome, Credit::Outcome::kInconclusive);
  EXPECT_DOUBLE_EQ(c.credit, 1);
  EXPECT_GE(c.p_faster, 0.1);
  EXPECT_GE(c.p_slower, 0.1);
  EXPECT_GT(c.ratio, 1);  // the raw ratio is still reported
  // Exactly the same samples.
  c = credit_speedup(cand, cand);
  EXPECT_EQ(c.outcome, Credit::Outcome::kInconclusive);
  EXPECT_DOUBLE_EQ(c.credit, 1);
  EXPECT_DOUBLE_EQ(c.ratio, 1);
  // Same distribution, independent draws.
  c = credit_speedup(samples(1000, 100, 20, 5), samples(1000, 100, 20, 6));
  EXPECT_DOUBLE_EQ(c.credit, c.outcome == Credit::Outcome::kInconclusive ? 1 : c.ratio);
  EXPECT_EQ(c.outcome, Credit::Outcome::kInconclusive);
}

TEST(CreditTest, AlphaIsRespectedAndEmptyIsInconclusive) {
  // m = n = 5, U = 21: p = 12/252 ~ 0.048, confirmed at 0.1 and 0.05 but not at 0.01.
  const std::vector<double> cand = {1, 2, 3, 4, 9}, base = {5, 6, 7, 8, 10};
  EXPECT_EQ(credit_speedup(cand, base, 0.1).outcome, Credit::Outcome::kFaster);
  EXPECT_EQ(credit_speedup(cand, base, 0.05).outcome, Credit::Outcome::kFaster);
  EXPECT_EQ(credit_speedup(cand, base, 0.01).outcome, Credit::Outcome::kInconclusive);
  EXPECT_DOUBLE_EQ(credit_speedup(cand, base, 0.01).credit, 1);
  const Credit c = credit_speedup(std::vector<double>{}, base);
  EXPECT_EQ(c.outcome, Credit::Outcome::kInconclusive);
  EXPECT_DOUBLE_EQ(c.credit, 1);
  EXPECT_DOUBLE_EQ(c.p_faster, 1);
  EXPECT_DOUBLE_EQ(c.p_slower, 1);
}

}  // namespace
}  // namespace hpcab
