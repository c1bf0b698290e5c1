// Timed sizes chosen by time (judge/grade/sizes.h): the ladder between presets, the usability
// checks, the jitter of hidden sizes, and the size search against a modelled cost.
#include "judge/grade/sizes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "common/manifest.h"

namespace hpcab::judge {
namespace {

Manifest Corpus(const std::string& path) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/" + path);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return *m;
}

TEST(SizeLadder, PresetsAtIntegersGeometricInBetween) {
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s000");  // N: S 512, M 95e6, L 157e6, XL 260e6
  EXPECT_EQ(ladder_sizes(m, 0), m.presets.at("S"));
  EXPECT_EQ(ladder_sizes(m, 1), m.presets.at("M"));
  EXPECT_EQ(ladder_sizes(m, 3), m.presets.at("XL"));
  const double mid = std::sqrt(512.0 * 95000000.0);
  EXPECT_NEAR(static_cast<double>(ladder_sizes(m, 0.5).at("N")), mid, 1);
  EXPECT_EQ(ladder_sizes(m, 7), m.presets.at("XL"));  // clamped
}

TEST(SizeLadder, UnusableSizes) {
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s311");
  EXPECT_FALSE(unusable_sizes(m, Precision::kFp64, m.presets.at("S"), uint64_t{1} << 30));
  // A sum of 2.2e8 values is ungradeable at fp64; 8 MiB does not fit 1 MiB.
  auto why = unusable_sizes(m, Precision::kFp64, m.presets.at("M"), uint64_t{1} << 40);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("ungradeable"), std::string::npos);
  EXPECT_TRUE(unusable_sizes(m, Precision::kFp64, {{"N", 1 << 20}}, 1 << 20));
  EXPECT_TRUE(unusable_sizes(m, Precision::kFp64, {{"N", 0}}, 1 << 20));
}

TEST(SizeLadder, EveryLadderAndJitteredSizeKeepsTheConstraints) {
  // Interpolation between presets breaks N == pow(R, K) and powers of two almost everywhere;
  // the ladder rounds down onto them, so every size the search may measure is a valid draw.
  for (const char* path : {"scientific_computing/spectral_methods/stockham_fft",
                           "scientific_computing/combinational_logic/bitonic_sort"}) {
    Manifest m = Corpus(path);
    ASSERT_FALSE(m.constraints.empty()) << path;
    std::set<int64_t> ns;
    int broken_before = 0;
    for (double t = -kBelowS; t <= 3.0; t += 0.05) {
      const SymbolTable s = ladder_sizes(m, t);
      EXPECT_FALSE(violated_constraint(m, s)) << path << " t=" << t;
      ns.insert(s.at("N"));
      for (uint64_t seed = 0; seed < 3; ++seed) {
        const SymbolTable j =
            jittered_sizes(m, Precision::kFp64, s, seed, 0.8, 1.2, uint64_t{1} << 40);
        EXPECT_FALSE(violated_constraint(m, j)) << path << " t=" << t;
      }
      // Without the rounding most of these would break the constraint.
      Manifest bare = m;
      bare.constraints.clear();
      if (violated_constraint(m, ladder_sizes(bare, t))) ++broken_before;
    }
    EXPECT_GT(ns.size(), 10u) << path;  // still a ladder, not a few fixed points
    EXPECT_GT(broken_before, 50) << path;
    EXPECT_EQ(
        unusable_sizes(m, Precision::kFp64, {{"N", 1000}, {"K", 10}, {"R", 2}}, uint64_t{1} << 40)
            .value_or("")
            .find("breaks constraint"),
        0u);
  }
}

TEST(SizeLadder, JitterStaysWithinItsBoundsAndVariesWithTheSeed) {
  Manifest m = Corpus("scientific_computing/dense_linear_algebra/gemm");
  const SymbolTable base = {{"NI", 400}, {"NJ", 500}, {"NK", 600}};
  std::set<int64_t> seen;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    SymbolTable j = jittered_sizes(m, Precision::kFp64, base, seed, 0.85, 1.15, uint64_t{1} << 34);
    for (const auto& [k, v] : base) {
      EXPECT_GE(j.at(k), std::llround(v * 0.85) - 1) << k;
      EXPECT_LE(j.at(k), std::llround(v * 1.15) + 1) << k;
    }
    seen.insert(j.at("NI"));
  }
  EXPECT_GT(seen.size(), 20u);  // secret and varied, not a fixed offset
  // Unusable draws fall back to the base sizes.
  EXPECT_EQ(jittered_sizes(m, Precision::kFp64, base, 3, 0.85, 1.15, 1), base);
}

// A modelled kernel: time = c * N (streaming) or c * N^3 (gemm-like), in ns.
struct Model {
  double c, power;
  std::string sym;
  int calls = 0;
  Result<double> operator()(const SymbolTable& s) {
    ++calls;
    return c * std::pow(static_cast<double>(s.at(sym)), power);
  }
};

TEST(SizeSearch, FindsTheSmallestSizeAtTheTargetInAFewMeasurements) {
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s000");
  Model model{1.0, 1, "N"};  // 1 ns per element: 2 ms at N = 2e6
  auto c = calibrate_sizes(m, Precision::kFp64, 2e6, uint64_t{8} << 30,
                           [&](const SymbolTable& s) { return model(s); });
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->reached);
  EXPECT_GE(c->baseline_ns, 2e6);
  EXPECT_LE(c->baseline_ns, 2e6 * 1.3);  // close above the target, not far
  EXPECT_LE(model.calls, 7);
  EXPECT_EQ(c->measurements, model.calls);
}

TEST(SizeSearch, NeverMeasuresFarAboveTheTargetOnACubicKernel) {
  Manifest m = Corpus("scientific_computing/dense_linear_algebra/gemm");
  double largest = 0;
  auto measure = [&](const SymbolTable& s) -> Result<double> {
    const double ns = 0.02 * s.at("NI") * s.at("NJ") * s.at("NK");  // ~100 GFlop/s
    largest = std::max(largest, ns);
    return ns;
  };
  auto c = calibrate_sizes(m, Precision::kFp64, 100e6, uint64_t{8} << 30, measure);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->reached);
  EXPECT_GE(c->baseline_ns, 100e6);
  EXPECT_LE(c->baseline_ns, 100e6 * 1.3);
  // Stepping at most one preset past the last point keeps every probe within reach of the
  // target (S takes 26 ms here): M (0.2 s) would have been, L (2.4 s) never is.
  EXPECT_LT(largest, 2.4e9);
}

TEST(SizeSearch, FromATinySStepsByTheDataNotByAWholePreset) {
  // tsvc_2_s000's S holds 512 elements, its M 95e6: one preset up from S would measure a 95 ms call
  // (and draw 1.4 GiB of inputs) for a 2 ms target. A fixed cost per call (1 us here) makes S
  // look slower than its work, so the data step undershoots and the secant finishes.
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s000");
  double largest = 0;
  int calls = 0;
  auto measure = [&](const SymbolTable& s) -> Result<double> {
    ++calls;
    const double ns = 1000.0 + static_cast<double>(s.at("N"));
    largest = std::max(largest, ns);
    return ns;
  };
  auto c = calibrate_sizes(m, Precision::kFp64, 2e6, uint64_t{8} << 30, measure);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->reached);
  EXPECT_GE(c->baseline_ns, 2e6);
  EXPECT_LE(c->baseline_ns, 2e6 * 1.3);
  EXPECT_LT(largest, 5 * 2e6);
  EXPECT_LE(calls, 7);
}

TEST(SizeSearch, FromASlowSStepsBelowS) {
  // gemm's paper-scale S (1000x1100x1200) at 0.1 ns per multiply-add is a 132 ms call; the
  // target is 5 ms, so the sizes come from below S, still close above the target.
  Manifest m = Corpus("scientific_computing/dense_linear_algebra/gemm");
  int calls = 0;
  auto measure = [&](const SymbolTable& s) -> Result<double> {
    ++calls;
    return 0.1 * static_cast<double>(s.at("NI")) * s.at("NJ") * s.at("NK");
  };
  auto c = calibrate_sizes(m, Precision::kFp64, 5e6, uint64_t{8} << 30, measure);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->reached);
  EXPECT_LT(c->t, 0);
  EXPECT_GE(c->baseline_ns, 5e6);
  EXPECT_LE(c->baseline_ns, 5e6 * 1.3);
  EXPECT_LT(c->sizes.at("NI"), m.presets.at("S").at("NI"));
  EXPECT_LE(calls, 7);
  // Below S every symbol shrinks at its S-to-M rate, so the ratios between them hold.
  const SymbolTable below = ladder_sizes(m, -1);
  for (const auto& [k, v] : m.presets.at("S")) {
    const double rate = static_cast<double>(m.presets.at("M").at(k)) / static_cast<double>(v);
    EXPECT_NEAR(static_cast<double>(below.at(k)), static_cast<double>(v) / rate, 1) << k;
  }
}

TEST(SizeSearch, NeverBelowTheSmallestUsableSize) {
  // A call that costs 5 ms whatever the size: the search walks down and stops at the floor of
  // the ladder with sizes the manifest can still run, reporting the target as reached.
  Manifest m = Corpus("scientific_computing/structured_grids/jacobi_2d");
  std::vector<SymbolTable> probed;
  auto c = calibrate_sizes(m, Precision::kFp64, 1e3, uint64_t{8} << 30,
                           [&](const SymbolTable& s) -> Result<double> {
                             probed.push_back(s);
                             return 5e6;
                           });
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->reached);
  EXPECT_LE(c->measurements, 7);
  for (const auto& s : probed) {
    EXPECT_FALSE(unusable_sizes(m, Precision::kFp64, s, uint64_t{8} << 30));
    for (const auto& [sym, range] : m.fuzzed) EXPECT_GE(s.at(sym), range.lo) << sym;
  }
  EXPECT_LT(c->sizes.begin()->second, m.presets.at("S").begin()->second);
}

TEST(SizeSearch, CapsAtTheLargestUsableSize) {
  // tsvc_2_s311 is ungradeable above ~4.5e6 elements at fp64: the search stops there, unreached.
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s311");
  auto c = calibrate_sizes(
      m, Precision::kFp64, 1e12, uint64_t{8} << 30,
      [](const SymbolTable& s) -> Result<double> { return static_cast<double>(s.at("N")); });
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->reached);
  EXPECT_FALSE(unusable_sizes(m, Precision::kFp64, c->sizes, uint64_t{8} << 30));
  EXPECT_GT(c->sizes.at("N"), 1000000);
}

TEST(SizeSearch, AMeasurementErrorIsReturned) {
  Manifest m = Corpus("loop_level_reasoning/tsvc_2_s000");
  auto c =
      calibrate_sizes(m, Precision::kFp64, 1e6, uint64_t{8} << 30,
                      [](const SymbolTable&) -> Result<double> { return Error{"runner crashed"}; });
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "runner crashed");
}

}  // namespace
}  // namespace hpcab::judge
