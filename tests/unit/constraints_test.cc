#include "common/constraints.h"

#include <gtest/gtest.h>

#include "common/manifest.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using json = nlohmann::json;
using testing::TempDir;

Manifest with_constraints(const TempDir& tmp, const json& sizes, const json& constraints) {
  auto j = testing::minimal_manifest("c");
  j["sizes"] = sizes;
  j["constraints"] = constraints;
  j["arrays"]["b"]["shape"] = json::array({"N"});
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return *m;
}

TEST(Constraint, ParsesOneComparison) {
  struct Case {
    const char* text;
    SymbolTable syms;
    bool holds;
  };
  for (const Case& c :
       std::initializer_list<Case>{{"M >= N", {{"M", 5}, {"N", 5}}, true},
                                   {"M > N", {{"M", 5}, {"N", 5}}, false},
                                   {"N % 4 == 0", {{"N", 12}}, true},
                                   {"N % 4 == 0", {{"N", 14}}, false},
                                   {"N != 3", {{"N", 3}}, false},
                                   {"2*N <= M - 1", {{"N", 3}, {"M", 7}}, true},
                                   {"N < M", {{"N", 3}, {"M", 3}}, false},
                                   {"N == pow(R, K)", {{"N", 8192}, {"R", 2}, {"K", 13}}, true},
                                   {"pow(2, log2(N)) == N", {{"N", 4096}}, true},
                                   {"pow(2, log2(N)) == N", {{"N", 4097}}, false}}) {
    auto k = parse_constraint(c.text);
    ASSERT_TRUE(k.ok()) << c.text << ": " << k.error().message;
    auto h = k->holds(c.syms);
    ASSERT_TRUE(h.ok()) << c.text;
    EXPECT_EQ(*h, c.holds) << c.text;
  }
  auto k = parse_constraint("M / N >= 1");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->symbols(), (std::set<std::string>{"M", "N"}));
  EXPECT_FALSE(k->holds({{"M", 1}, {"N", 0}}).ok());  // division by zero is an error, not false
  for (const char* bad : {"N", "N = 4", "N => 4", "N >= M >= 1", "N >= ", "== N", "N ! M",
                          "N >= sqrt(M)", "N <> M"}) {
    EXPECT_FALSE(parse_constraint(bad).ok()) << bad;
  }
}

TEST(Constraint, SnapRoundsDownOntoPowersOfTwo) {
  TempDir tmp;
  Manifest m = with_constraints(
      tmp,
      json::parse(R"({"S": {"N": 64}, "M": {"N": 1024}, "L": {"N": 4096}, "XL": {"N": 65536}})"),
      json::array({"pow(2, log2(N)) == N"}));
  EXPECT_EQ(snap_to_constraints(m, {{"N", 64}})->at("N"), 64);
  EXPECT_EQ(snap_to_constraints(m, {{"N", 1000}})->at("N"), 512);
  EXPECT_EQ(snap_to_constraints(m, {{"N", 3}})->at("N"), 2);
  EXPECT_EQ(violated_constraint(m, {{"N", 1000}}), "pow(2, log2(N)) == N");
  EXPECT_FALSE(violated_constraint(m, {{"N", 512}}));
}

TEST(Constraint, SnapKeepsWhatHeldAndFixesEachBrokenConstraint) {
  TempDir tmp;
  // Divisibility and an order relation together: the snap must not break M >= N while making
  // N a multiple of 8, and M is rounded onto its own multiple.
  Manifest m =
      with_constraints(tmp, json::parse(R"({"S": {"N": 16, "M": 24}, "M": {"N": 64, "M": 96},
                      "L": {"N": 128, "M": 192}, "XL": {"N": 256, "M": 384}})"),
                       json::array({"M >= N", "N % 8 == 0", "M % 3 == 0"}));
  auto s = snap_to_constraints(m, {{"N", 100}, {"M", 101}});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->at("N"), 96);
  EXPECT_EQ(s->at("M"), 99);
  EXPECT_FALSE(violated_constraint(m, *s));
  // Stockham: N == pow(R, K) with R and K interpolated; N is rounded down to R^K.
  TempDir tmp2;
  Manifest f = with_constraints(
      tmp2, json::parse(R"({"S": {"R": 2, "K": 13, "N": 8192}, "M": {"R": 2, "K": 22, "N": 4194304},
                      "L": {"R": 2, "K": 25, "N": 33554432}, "XL": {"R": 2, "K": 26, "N": 67108864}})"),
      json::array({"N == pow(R, K)"}));
  auto g = snap_to_constraints(f, {{"R", 2}, {"K", 17}, {"N", 185364}});
  ASSERT_TRUE(g);
  EXPECT_EQ(g->at("N"), 131072);
  EXPECT_EQ(g->at("K"), 17);
  // K rounded up past N's exponent: no single symbol repairs it (N only moves down, and no K
  // below 17 gives 122000); K and N move together.
  auto h = snap_to_constraints(f, {{"R", 2}, {"K", 17}, {"N", 122000}});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->at("K"), 16);
  EXPECT_EQ(h->at("N"), 65536);
}

TEST(Constraint, SnapGivesUpRatherThanGuess) {
  TempDir tmp;
  // Rounding down from N = 10, M = 5 never reaches N == M + 1000: no sizes rather than wrong ones.
  Manifest m =
      with_constraints(tmp, json::parse(R"({"S": {"N": 1001, "M": 1}, "M": {"N": 1002, "M": 2},
                      "L": {"N": 1003, "M": 3}, "XL": {"N": 1004, "M": 4}})"),
                       json::array({"N == M + 1000"}));
  EXPECT_FALSE(snap_to_constraints(m, {{"N", 10}, {"M", 5}}));
}

}  // namespace
}  // namespace hpcab
