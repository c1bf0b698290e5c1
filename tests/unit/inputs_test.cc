#include "common/inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using json = nlohmann::json;
using testing::TempDir;

const std::string kCorpus = std::string(HPCAB_SOURCE_DIR) + "/corpus";

Manifest corpus_kernel(const std::string& rel) {
  auto m = load_manifest(kCorpus + "/" + rel);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return *m;
}

Draw draw(const Manifest& m, uint64_t seed, const SymbolTable& sizes, int threads = 0,
          std::optional<Distribution> dist = std::nullopt, Precision p = Precision::kFp64) {
  DrawSpec s;
  s.seed = seed;
  s.precision = p;
  s.sizes = sizes;
  s.distribution = dist;
  s.threads = threads;
  auto d = generate_draw(m, s);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
  return *d;
}

bool same_draw(const Draw& x, const Draw& y) {
  if (x.arrays.size() != y.arrays.size()) return false;
  for (const auto& [name, a] : x.arrays) {
    if (!a.bytes_equal(y.arrays.at(name))) {
      // NaN poison is bit-identical too, so bytes_equal is the right notion.
      return false;
    }
  }
  return true;
}

TEST(Inputs, BitIdenticalAcrossRunsAndThreadCounts) {
  // Large enough (M presets) that the OpenMP loops really split across threads.
  for (const char* rel :
       {"scientific_computing/dense_linear_algebra/gemm",
        "scientific_computing/sparse_linear_algebra/spmv",
        "scientific_computing/dense_linear_algebra/cholesky", "loop_level_reasoning/s4112"}) {
    Manifest m = corpus_kernel(rel);
    SymbolTable sizes = m.presets.at("S");
    for (auto& [k, v] : sizes) v = std::min<int64_t>(m.presets.at("M").at(k), 4 * v);
    for (Distribution dist :
         {Distribution::kUniform, Distribution::kNormal, Distribution::kLognormal}) {
      Draw one = draw(m, 42, sizes, 1, dist);
      Draw two = draw(m, 42, sizes, 2, dist);
      Draw again = draw(m, 42, sizes, 2, dist);
      EXPECT_TRUE(same_draw(one, two)) << rel;
      EXPECT_TRUE(same_draw(two, again)) << rel;
      Draw other = draw(m, 43, sizes, 2, dist);
      EXPECT_FALSE(same_draw(one, other)) << rel;
    }
  }
}

TEST(Inputs, ElementDependsOnlyOnSeedNameAndIndex) {
  Manifest m = corpus_kernel("loop_level_reasoning/s000");
  Draw small = draw(m, 7, {{"N", 100}}, 0, Distribution::kUniform);
  Draw large = draw(m, 7, {{"N", 50000}}, 0, Distribution::kUniform);
  const double* a = small.arrays.at("b").as<double>();
  const double* b = large.arrays.at("b").as<double>();
  EXPECT_TRUE(std::equal(a, a + 100, b));
}

TEST(Inputs, DistributionsLookRight) {
  Manifest m = corpus_kernel("loop_level_reasoning/s000");  // b: domain any
  const int64_t n = 200000;
  auto stats = [&](Distribution d) {
    Draw x = draw(m, 11, {{"N", n}}, 0, d);
    const double* v = x.arrays.at("b").as<double>();
    double mean = std::accumulate(v, v + n, 0.0) / n;
    double var = 0, lo = v[0], hi = v[0];
    for (int64_t i = 0; i < n; ++i) {
      var += (v[i] - mean) * (v[i] - mean);
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
    return std::array<double, 4>{mean, std::sqrt(var / n), lo, hi};
  };
  auto u = stats(Distribution::kUniform);
  EXPECT_NEAR(u[0], 0, 10);
  EXPECT_NEAR(u[1], 2000 / std::sqrt(12.0), 10);
  EXPECT_GE(u[2], -1000);
  EXPECT_LT(u[3], 1000);
  auto nrm = stats(Distribution::kNormal);
  EXPECT_NEAR(nrm[0], 0, 0.02);
  EXPECT_NEAR(nrm[1], 1, 0.02);
  auto ln = stats(Distribution::kLognormal);
  EXPECT_GT(ln[2], 0);
  EXPECT_NEAR(ln[0], std::exp(0.5), 0.05);
}

TEST(Inputs, SeedChoosesDistributionUnlessForced) {
  EXPECT_EQ(distribution_for_seed(0), Distribution::kUniform);
  EXPECT_EQ(distribution_for_seed(1), Distribution::kNormal);
  EXPECT_EQ(distribution_for_seed(2), Distribution::kLognormal);
  Manifest m = corpus_kernel("loop_level_reasoning/s000");
  EXPECT_EQ(draw(m, 4, {{"N", 10}}).distribution, Distribution::kNormal);
  EXPECT_EQ(draw(m, 4, {{"N", 10}}, 0, Distribution::kLognormal).distribution,
            Distribution::kLognormal);
}

TEST(Inputs, DomainFolding) {
  Domain pos{Domain::Kind::kPositive, 0, 0};
  EXPECT_EQ(fold_into(pos, -3.5), 3.5);
  EXPECT_GT(fold_into(pos, 0.0), 0.0);
  Domain nonneg{Domain::Kind::kNonneg, 0, 0};
  EXPECT_EQ(fold_into(nonneg, -0.0), 0.0);
  Domain iv{Domain::Kind::kInterval, 1, 3};
  EXPECT_DOUBLE_EQ(fold_into(iv, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(fold_into(iv, 4.0), 2.0);  // reflected at 3
  EXPECT_DOUBLE_EQ(fold_into(iv, 0.5), 1.5);  // reflected at 1
  EXPECT_DOUBLE_EQ(fold_into(iv, 5.0), 1.0);  // a full period away
  EXPECT_DOUBLE_EQ(fold_into(iv, 6.0), 2.0);
  for (double x = -1000; x < 1000; x += 0.37) {
    double y = fold_into(iv, x);
    ASSERT_GE(y, 1.0);
    ASSERT_LE(y, 3.0);
  }
}

TEST(Inputs, Fp32PositiveDomainNeverRoundsToZero) {
  TempDir tmp;
  auto j = testing::minimal_manifest("k");
  j["arrays"]["b"]["domain"] = "positive";
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok());
  DrawSpec s;
  s.seed = 3;
  s.precision = Precision::kFp32;
  s.sizes = {{"N", 10000}};
  s.scale = 1e-300;  // every double is far below FLT_MIN
  auto d = generate_draw(*m, s);
  ASSERT_TRUE(d.ok());
  const float* b = d->arrays.at("b").as<float>();
  for (int i = 0; i < 10000; ++i) ASSERT_GT(b[i], 0.0f);
}

TEST(Inputs, IntegerRangesAndOutputsPoisoned) {
  Manifest m = corpus_kernel("loop_level_reasoning/s4112");  // ip int32 in [0, N-1]
  Draw d = draw(m, 5, {{"N", 1000}});
  const NdArray& ip = d.arrays.at("ip");
  ASSERT_EQ(ip.dtype(), DType::kInt32);
  std::set<int32_t> seen;
  for (int64_t i = 0; i < ip.size(); ++i) {
    int32_t v = ip.as<int32_t>()[i];
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 1000);
    seen.insert(v);
  }
  EXPECT_GT(seen.size(), 500u);  // not a constant

  Manifest s000 = corpus_kernel("loop_level_reasoning/s000");
  Draw o = draw(s000, 5, {{"N", 100}});
  for (int64_t i = 0; i < 100; ++i) ASSERT_TRUE(std::isnan(o.arrays.at("a").as<double>()[i]));
  Manifest crc = corpus_kernel("scientific_computing/combinational_logic/crc16");
  Draw c = draw(crc, 5, crc.presets.at("S"));
  for (const auto& spec : crc.arrays) {
    if (spec.intent != Intent::kOut) continue;
    const NdArray& out = c.arrays.at(spec.name);
    const auto* bytes = static_cast<const uint8_t*>(out.data());
    for (std::size_t i = 0; i < out.nbytes(); ++i) ASSERT_EQ(bytes[i], 0xA5);
  }
}

TEST(Inputs, SpdInitializer) {
  Manifest m = corpus_kernel("scientific_computing/dense_linear_algebra/cholesky");
  const int64_t n = m.presets.at("S").begin()->second;
  Draw d = draw(m, 9, m.presets.at("S"));
  const NdArray& a = d.arrays.at(m.initializers.at(0).array);
  ASSERT_EQ(a.shape(), (std::vector<int64_t>{n, n}));
  const double* v = a.as<double>();
  for (int64_t i = 0; i < n; ++i) {
    double off = 0;
    for (int64_t j = 0; j < n; ++j) {
      ASSERT_EQ(v[i * n + j], v[j * n + i]);
      if (j != i) off += std::fabs(v[i * n + j]);
    }
    ASSERT_GT(v[i * n + i], off);  // strictly diagonally dominant, positive diagonal
  }
}

TEST(Inputs, CsrInitializer) {
  Manifest m = corpus_kernel("scientific_computing/sparse_linear_algebra/spmv");
  const Initializer& init = m.initializers.at(0);
  ASSERT_EQ(init.kind, Initializer::Kind::kCsr);
  for (uint64_t seed : {1, 2, 3}) {
    Draw d = draw(m, seed, fuzzed_sizes(m, seed));
    const NdArray& ptr = d.arrays.at(init.indptr);
    const NdArray& idx = d.arrays.at(init.indices);
    const int64_t rows = ptr.size() - 1;
    const int64_t cols = *init.cols->eval(d.symbols);
    ASSERT_EQ(ptr.get(0), 0);
    ASSERT_EQ(ptr.get(rows), idx.size());
    std::set<int64_t> lengths;
    for (int64_t r = 0; r < rows; ++r) {
      const auto lo = static_cast<int64_t>(ptr.get(r)), hi = static_cast<int64_t>(ptr.get(r + 1));
      ASSERT_LE(lo, hi);
      ASSERT_LE(hi - lo, cols);
      lengths.insert(hi - lo);
      for (int64_t k = lo; k < hi; ++k) {
        ASSERT_GE(idx.get(k), 0);
        ASSERT_LT(idx.get(k), cols);
        if (k > lo) {
          ASSERT_LT(idx.get(k - 1), idx.get(k));  // sorted, distinct
        }
      }
    }
    EXPECT_GT(lengths.size(), 1u);  // row lengths vary
  }
}

TEST(Inputs, PermutationInitializer) {
  TempDir tmp;
  auto j = testing::minimal_manifest("k");
  j["arrays"]["p"] = {{"shape", {"N"}}, {"dtype", "int64"}, {"intent", "in"}};
  j["initializers"] = json::array({{{"kind", "permutation"}, {"array", "p"}}});
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  Draw d = draw(*m, 1, {{"N", 5000}});
  const int64_t* p = d.arrays.at("p").as<int64_t>();
  std::vector<int64_t> sorted(p, p + 5000);
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 5000; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_FALSE(std::equal(p, p + 5000, sorted.begin()));  // not the identity
}

TEST(Inputs, FuzzedSizesStayInRange) {
  Manifest m = corpus_kernel("scientific_computing/dense_linear_algebra/gemm");
  std::set<int64_t> seen;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    SymbolTable s = fuzzed_sizes(m, seed);
    for (const auto& [sym, range] : m.fuzzed) {
      ASSERT_GE(s.at(sym), range.first);
      ASSERT_LE(s.at(sym), range.second);
    }
    seen.insert(s.at("NI"));
  }
  EXPECT_GT(seen.size(), 30u);
}

TEST(Inputs, ErrorsAreValues) {
  Manifest m = corpus_kernel("scientific_computing/combinational_logic/crc16");
  DrawSpec s;
  s.precision = Precision::kFp32;  // crc16 is fp64 only
  s.sizes = m.presets.at("S");
  EXPECT_FALSE(generate_draw(m, s).ok());
  s.precision = Precision::kFp64;
  s.sizes.clear();
  auto r = generate_draw(m, s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("size symbol"), std::string::npos);
}

}  // namespace
}  // namespace hpcab
