#include "common/scaling.h"

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using testing::minimal_manifest;
using testing::TempDir;
using testing::write_manifest;
using json = nlohmann::json;

// A gemm-like kernel: work 2*NI*NJ*NK, rows of A and C split across the ranks, NI grown by P
// under weak scaling; and a 2-D stencil whose N grows by sqrt(P).
json mpi_manifest() {
  auto j = json::parse(R"({
    "id": "k", "name": "n", "track": "loop_level_reasoning", "level": 1, "description": "d",
    "precisions": ["fp64"],
    "sizes": {"S": {"NI": 8, "NJ": 4, "NK": 2}, "M": {"NI": 80, "NJ": 40, "NK": 20},
              "L": {"NI": 800, "NJ": 400, "NK": 200}, "XL": {"NI": 1600, "NJ": 800, "NK": 400}},
    "arrays": {"A": {"shape": ["NI", "NK"], "dtype": "real", "intent": "in"},
               "B": {"shape": ["NK", "NJ"], "dtype": "real", "intent": "in"},
               "C": {"shape": ["NI", "NJ"], "dtype": "real", "intent": "out"}},
    "flops": "2*NI*NJ*NK",
    "mpi": {"ranks": [1, 2, 4, 8], "weak": {"NI": 1},
            "distribution": {"A": {"block": 0}, "C": {"block": 0}, "B": "replicated"}}
  })");
  return j;
}

Manifest load(const json& j) {
  TempDir tmp;
  auto m = load_manifest(write_manifest(tmp.path(), j));
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? *m : Manifest{};
}

std::string load_error(const json& j) {
  TempDir tmp;
  auto m = load_manifest(write_manifest(tmp.path(), j));
  return m.ok() ? "" : m.error().message;
}

TEST(Scaling, BlockRangesCoverTheAxisOnceAndDifferByAtMostOne) {
  // Hand-computed: n = 10, P = 4: floor(r*10/4) = 0, 2, 5, 7, 10.
  EXPECT_EQ(block_range(10, 4, 0), std::make_pair(int64_t{0}, int64_t{2}));
  EXPECT_EQ(block_range(10, 4, 1), std::make_pair(int64_t{2}, int64_t{5}));
  EXPECT_EQ(block_range(10, 4, 2), std::make_pair(int64_t{5}, int64_t{7}));
  EXPECT_EQ(block_range(10, 4, 3), std::make_pair(int64_t{7}, int64_t{10}));
  // Fewer indices than ranks: some ranks hold none.
  EXPECT_EQ(block_range(2, 4, 0), std::make_pair(int64_t{0}, int64_t{0}));
  EXPECT_EQ(block_range(2, 4, 3), std::make_pair(int64_t{1}, int64_t{2}));
  for (int64_t n : {0, 1, 7, 64, 1000003}) {
    for (int p : {1, 2, 3, 4, 7, 16}) {
      int64_t next = 0;
      for (int r = 0; r < p; ++r) {
        auto [lo, hi] = block_range(n, p, r);
        EXPECT_EQ(lo, next);
        EXPECT_LE(hi - lo, n / p + 1);
        EXPECT_GE(hi - lo, n / p);
        next = hi;
      }
      EXPECT_EQ(next, n);
    }
  }
  // No overflow of r*n for axis lengths near the int64 limit.
  const int64_t big = int64_t{1} << 62;
  EXPECT_EQ(block_range(big, 4, 3).second, big);
  EXPECT_EQ(block_range(big, 4, 2).first, big / 2);
}

TEST(Scaling, ExactRoots) {
  EXPECT_EQ(exact_root(1, 2), 1);
  EXPECT_EQ(exact_root(4, 2), 2);
  EXPECT_EQ(exact_root(2, 2), std::nullopt);
  EXPECT_EQ(exact_root(8, 3), 2);
  EXPECT_EQ(exact_root(4, 3), std::nullopt);
  EXPECT_EQ(exact_root(1000000, 3), 100);
  EXPECT_EQ(exact_root(7, 1), 7);
  EXPECT_EQ(exact_root(0, 2), std::nullopt);
}

TEST(Scaling, WeakSizesGrowByTheRootOfP) {
  auto m = load(mpi_manifest());
  ASSERT_TRUE(m.mpi);
  const auto& base = m.presets.at("M");
  auto at4 = weak_sizes(m, base, 4);
  ASSERT_TRUE(at4.ok()) << at4.error().message;
  EXPECT_EQ(at4->at("NI"), 320);  // 80 * 4
  EXPECT_EQ(at4->at("NJ"), 40);
  EXPECT_EQ(at4->at("NK"), 20);
  EXPECT_EQ(weak_ranks(m), (std::vector<int>{1, 2, 4, 8}));

  // A 2-D stencil: N grows by sqrt(P), defined at P = 1 and 4 only.
  auto j = mpi_manifest();
  j["mpi"]["weak"] = {{"NI", 2}};
  auto s = load(j);
  EXPECT_EQ(weak_ranks(s), (std::vector<int>{1, 4}));
  auto sq = weak_sizes(s, base, 4);
  ASSERT_TRUE(sq.ok());
  EXPECT_EQ(sq->at("NI"), 160);
  auto not_square = weak_sizes(s, base, 2);
  ASSERT_FALSE(not_square.ok());
  EXPECT_EQ(not_square.error().code, Errc::kInvalid);
  // A rank count the block does not declare, and a kernel without the block.
  EXPECT_EQ(weak_sizes(m, base, 3).error().code, Errc::kInvalid);
  Manifest plain = load(minimal_manifest());
  EXPECT_FALSE(plain.mpi);
  EXPECT_EQ(weak_sizes(plain, plain.presets.at("M"), 1).error().code, Errc::kInvalid);
  EXPECT_TRUE(weak_ranks(plain).empty());
}

TEST(Scaling, WorkGrowthFromTheFlopsExpression) {
  auto m = load(mpi_manifest());
  const auto& base = m.presets.at("M");
  auto grown = weak_sizes(m, base, 8);
  ASSERT_TRUE(grown.ok());
  auto g = work_growth(m, base, *grown);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_DOUBLE_EQ(*g, 8.0);
  auto same = work_growth(m, base, base);
  ASSERT_TRUE(same.ok());
  EXPECT_DOUBLE_EQ(*same, 1.0);
  // Growing NJ instead (not the rows): the flops ratio still says 8.
  auto j = mpi_manifest();
  j["mpi"]["weak"] = {{"NJ", 1}};
  auto n = load(j);
  auto gj = work_growth(n, base, *weak_sizes(n, base, 8));
  ASSERT_TRUE(gj.ok());
  EXPECT_DOUBLE_EQ(*gj, 8.0);
  // Neither flops nor bytes: no growth to compare with.
  j.erase("flops");
  auto none = load(j);
  EXPECT_FALSE(work_growth(none, base, base).ok());
}

TEST(Scaling, EfficiencyAndScoreAgainstHandComputedValues) {
  // Strong scaling: baseline 1.0 s on one PE, the answer 0.3 s on 4 PEs: 1 / (4 * 0.3).
  EXPECT_NEAR(scaling_efficiency(1.0, 0.3, 4, 1.0), 0.833333333333, 1e-12);
  // Ideal strong scaling of the baseline.
  EXPECT_DOUBLE_EQ(scaling_efficiency(2.0, 0.5, 4, 1.0), 1.0);
  // Weak scaling: 4x the work on 4 PEs in the baseline's one-PE time is ideal...
  EXPECT_DOUBLE_EQ(scaling_efficiency(1.0, 1.0, 4, 4.0), 1.0);
  // ...and twice as fast beats the baseline per PE.
  EXPECT_DOUBLE_EQ(scaling_efficiency(1.0, 0.5, 4, 4.0), 2.0);
  // An answer 3x faster than the baseline on one PE.
  EXPECT_DOUBLE_EQ(scaling_efficiency(3.0, 1.0, 1, 1.0), 3.0);
  // Score: geometric mean; (2 * 0.5 * 1)^(1/3) = 1; (4 * 1)^(1/2) = 2.
  EXPECT_DOUBLE_EQ(*scaling_score({2.0, 0.5, 1.0}), 1.0);
  EXPECT_NEAR(*scaling_score({4.0, 1.0}), 2.0, 1e-12);
  EXPECT_EQ(scaling_score({}), std::nullopt);
  EXPECT_EQ(scaling_score({1.0, 0.0}), std::nullopt);
  EXPECT_EQ(scaling_score({1.0, -2.0}), std::nullopt);
}

TEST(Manifest, MpiBlockIsParsedAndValidated) {
  auto m = load(mpi_manifest());
  ASSERT_TRUE(m.mpi);
  EXPECT_EQ(m.mpi->ranks, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(m.mpi->of("A").kind, MpiDistribution::Kind::kBlock);
  EXPECT_EQ(m.mpi->of("A").axis, 0);
  EXPECT_EQ(m.mpi->of("B").kind, MpiDistribution::Kind::kReplicated);
  EXPECT_EQ(m.mpi->weak.at("NI"), 1);

  auto expect_field = [](json j, const std::string& field) {
    std::string err = load_error(j);
    EXPECT_NE(err.find("'" + field), std::string::npos) << "want field " << field << ": " << err;
  };
  auto j = mpi_manifest();
  j["mpi"]["ranks"] = {2, 4};  // no one-PE point
  expect_field(j, "mpi.ranks");
  j["mpi"]["ranks"] = {1, 4, 2};  // not ascending
  expect_field(j, "mpi.ranks");
  j["mpi"]["ranks"] = {1, 2048};
  expect_field(j, "mpi.ranks");
  j = mpi_manifest();
  j["mpi"]["weak"] = {{"Q", 1}};
  expect_field(j, "mpi.weak.Q");
  j["mpi"]["weak"] = {{"NI", 4}};
  expect_field(j, "mpi.weak.NI");
  j = mpi_manifest();
  j["mpi"]["distribution"]["A"] = {{"block", 2}};  // A has two axes
  expect_field(j, "mpi.distribution.A");
  j["mpi"]["distribution"]["A"] = "scattered";
  expect_field(j, "mpi.distribution.A");
  j = mpi_manifest();
  j["mpi"]["distribution"]["Z"] = "replicated";
  expect_field(j, "mpi.distribution.Z");
  j = mpi_manifest();
  j["mpi"]["distribution"] = {{"A", "replicated"}};  // nothing split
  expect_field(j, "mpi.distribution");
  j = mpi_manifest();
  j["mpi"]["schedule"] = 1;
  expect_field(j, "mpi.schedule");
}

}  // namespace
}  // namespace hpcab
