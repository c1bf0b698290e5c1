// The named initializers beyond spd/permutation/csr, discrete fuzz sets and constraints in the
// generator: each structure holds on every draw, and every draw is bit-identical for any thread
// count (docs/corpus.md, "Initializers").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <set>

#include "common/inputs.h"
#include "common/manifest.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using json = nlohmann::json;
using testing::TempDir;

json array_spec(const json& shape, const std::string& dtype, const std::string& intent = "in") {
  return {{"shape", shape}, {"dtype", dtype}, {"intent", intent}};
}

// A kernel whose inputs are all structured: one initializer of each new kind.
json structured_json() {
  auto j = testing::minimal_manifest("structured");
  j["sizes"] = json::parse(R"({"S": {"N": 50, "E": 400, "H": 7}, "M": {"N": 60, "E": 500, "H": 8},
                               "L": {"N": 70, "E": 600, "H": 9}, "XL": {"N": 80, "E": 700, "H": 10}})");
  j["arrays"]["b"] = array_spec({"N"}, "real");
  j["arrays"]["band"] = array_spec({"N", "N"}, "real");
  j["arrays"]["band"]["domain"] = json::array({-3, 3});
  j["arrays"]["dd"] = array_spec({"N", "N"}, "real");
  j["arrays"]["q"] = array_spec({"N", "N"}, "real");
  j["arrays"]["gp"] = array_spec({"N+1"}, "int32");
  j["arrays"]["gi"] = array_spec({"E"}, "int32");
  j["arrays"]["gw"] = array_spec({"E"}, "real");
  j["arrays"]["gw"]["domain"] = json::array({1, 10});
  j["arrays"]["dp"] = array_spec({"N+1"}, "int64");
  j["arrays"]["di"] = array_spec({"E"}, "int64");
  j["arrays"]["keys"] = array_spec({"E"}, "int32");
  j["arrays"]["keys"]["range"] = json::array({-50, 50});
  j["arrays"]["rkeys"] = array_spec({"N"}, "real");
  j["arrays"]["probs"] = array_spec({"H", "N"}, "real");
  j["arrays"]["dna"] = array_spec({"E"}, "uint8");
  j["arrays"]["msg"] = array_spec({"H", "N"}, "int8");
  j["arrays"]["small"] = array_spec({"N"}, "int8");
  j["arrays"]["small"]["range"] = json::array({-128, 127});
  j["initializers"] = json::parse(R"([
    {"kind": "banded", "array": "band", "lower": "2", "upper": "H - 6", "dominant": true},
    {"kind": "diag_dominant", "array": "dd"},
    {"kind": "orthogonal", "array": "q"},
    {"kind": "graph", "indptr": "gp", "indices": "gi", "weights": "gw"},
    {"kind": "graph", "indptr": "dp", "indices": "di", "directed": true},
    {"kind": "sorted", "array": "keys"},
    {"kind": "sorted", "array": "rkeys"},
    {"kind": "probability", "array": "probs"},
    {"kind": "text", "array": "dna", "alphabet": "ACGT"},
    {"kind": "text", "array": "msg", "alphabet": "abc ,.!\n"}
  ])");
  return j;
}

Manifest load_json(const TempDir& tmp, const json& j) {
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Manifest{};
}

Draw draw(const Manifest& m, uint64_t seed, const SymbolTable& sizes, int threads = 0,
          Precision p = Precision::kFp64) {
  DrawSpec s;
  s.seed = seed;
  s.sizes = sizes;
  s.threads = threads;
  s.precision = p;
  auto d = generate_draw(m, s);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
  return d.ok() ? *d : Draw{};
}

// Vertices reachable from 0 along CSR rows.
int64_t reachable(const NdArray& indptr, const NdArray& indices) {
  const int64_t n = indptr.size() - 1;
  std::vector<bool> seen(n, false);
  std::queue<int64_t> todo;
  todo.push(0);
  seen[0] = true;
  int64_t count = 1;
  while (!todo.empty()) {
    int64_t u = todo.front();
    todo.pop();
    for (int64_t e = static_cast<int64_t>(indptr.get(u)); e < indptr.get(u + 1); ++e) {
      auto v = static_cast<int64_t>(indices.get(e));
      if (!seen[v]) {
        seen[v] = true;
        ++count;
        todo.push(v);
      }
    }
  }
  return count;
}

// CSR well formed: indptr from 0 to nnz, non-decreasing; each row's columns strictly increasing
// (no parallel edges) and never the row itself (no loops).
void expect_simple_csr(const NdArray& indptr, const NdArray& indices) {
  const int64_t n = indptr.size() - 1;
  ASSERT_EQ(indptr.get(0), 0);
  ASSERT_EQ(indptr.get(n), indices.size());
  for (int64_t u = 0; u < n; ++u) {
    ASSERT_LE(indptr.get(u), indptr.get(u + 1));
    for (int64_t e = static_cast<int64_t>(indptr.get(u)); e < indptr.get(u + 1); ++e) {
      ASSERT_GE(indices.get(e), 0);
      ASSERT_LT(indices.get(e), n);
      ASSERT_NE(indices.get(e), u) << "self loop at " << u;
      if (e > indptr.get(u)) {
        ASSERT_LT(indices.get(e - 1), indices.get(e));
      }
    }
  }
}

TEST(StructuredInputs, EveryInitializerBuildsItsStructure) {
  TempDir tmp;
  Manifest m = load_json(tmp, structured_json());
  for (uint64_t seed : {1u, 2u, 3u, 77u}) {
    SymbolTable sizes = m.presets.at(seed == 77 ? "XL" : "S");
    for (Precision p : {Precision::kFp64, Precision::kFp32}) {
      Draw d = draw(m, seed, sizes, 0, p);
      const int64_t n = sizes.at("N"), e = sizes.at("E"), h = sizes.at("H");
      const double tol = p == Precision::kFp64 ? 1e-12 : 1e-5;
      // banded: lower 2, upper H - 6, zero outside, diagonal above the row's off-diagonal sum.
      const NdArray& band = d.arrays.at("band");
      for (int64_t i = 0; i < n; ++i) {
        double off = 0;
        for (int64_t k = 0; k < n; ++k) {
          const double x = band.get(i * n + k);
          if (k - i > h - 6 || i - k > 2) {
            ASSERT_EQ(x, 0.0) << i << "," << k;
          } else if (k != i) {
            ASSERT_LE(std::fabs(x), 3.0);
            off += std::fabs(x);
          }
        }
        ASSERT_GT(band.get(i * n + i), off);
      }
      // diag_dominant: by rows and by columns, not symmetric.
      const NdArray& dd = d.arrays.at("dd");
      bool symmetric = true;
      for (int64_t i = 0; i < n; ++i) {
        double row = 0, col = 0;
        for (int64_t k = 0; k < n; ++k) {
          if (k == i) continue;
          row += std::fabs(dd.get(i * n + k));
          col += std::fabs(dd.get(k * n + i));
          symmetric = symmetric && dd.get(i * n + k) == dd.get(k * n + i);
        }
        ASSERT_GT(dd.get(i * n + i), row);
        ASSERT_GT(dd.get(i * n + i), col);
      }
      EXPECT_FALSE(symmetric);
      // orthogonal: Q^T Q = I to rounding, and dense (not the identity).
      const NdArray& q = d.arrays.at("q");
      double max_dev = 0, off_mass = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < n; ++k) {
          double s = 0;
          for (int64_t r = 0; r < n; ++r) s += q.get(r * n + i) * q.get(r * n + k);
          max_dev = std::max(max_dev, std::fabs(s - (i == k ? 1.0 : 0.0)));
          if (i != k) off_mass += std::fabs(q.get(i * n + k));
        }
      }
      EXPECT_LT(max_dev, 100 * tol);
      EXPECT_GT(off_mass, 1.0);
      // undirected connected graph with symmetric weights in [1, 10].
      const NdArray &gp = d.arrays.at("gp"), &gi = d.arrays.at("gi"), &gw = d.arrays.at("gw");
      expect_simple_csr(gp, gi);
      EXPECT_EQ(reachable(gp, gi), n);
      for (int64_t u = 0; u < n; ++u) {
        for (int64_t k = static_cast<int64_t>(gp.get(u)); k < gp.get(u + 1); ++k) {
          const int64_t v = static_cast<int64_t>(gi.get(k));
          ASSERT_GE(gw.get(k), 1.0);
          ASSERT_LE(gw.get(k), 10.0);
          // The reverse entry exists, with the same weight.
          bool found = false;
          for (int64_t r = static_cast<int64_t>(gp.get(v)); r < gp.get(v + 1); ++r) {
            if (gi.get(r) == u) {
              found = true;
              ASSERT_EQ(gw.get(r), gw.get(k));
            }
          }
          ASSERT_TRUE(found) << u << "->" << v;
        }
      }
      // directed strongly connected graph: every vertex reaches 0 as well (reverse reachability
      // through the transpose).
      const NdArray &dp = d.arrays.at("dp"), &di = d.arrays.at("di");
      expect_simple_csr(dp, di);
      EXPECT_EQ(reachable(dp, di), n);
      std::vector<std::vector<int64_t>> rev(n);
      for (int64_t u = 0; u < n; ++u) {
        for (int64_t k = static_cast<int64_t>(dp.get(u)); k < dp.get(u + 1); ++k) {
          rev[static_cast<int64_t>(di.get(k))].push_back(u);
        }
      }
      NdArray rp(DType::kInt64, {n + 1}), ri(DType::kInt64, {e});
      int64_t pos = 0;
      for (int64_t u = 0; u < n; ++u) {
        rp.as<int64_t>()[u] = pos;
        for (int64_t v : rev[u]) ri.as<int64_t>()[pos++] = v;
      }
      rp.as<int64_t>()[n] = pos;
      EXPECT_EQ(reachable(rp, ri), n);
      // sorted keys, in range, not all equal.
      const NdArray& keys = d.arrays.at("keys");
      for (int64_t i = 1; i < e; ++i) ASSERT_LE(keys.get(i - 1), keys.get(i));
      EXPECT_GE(keys.get(0), -50);
      EXPECT_LE(keys.get(e - 1), 50);
      EXPECT_LT(keys.get(0), keys.get(e - 1));
      const NdArray& rkeys = d.arrays.at("rkeys");
      for (int64_t i = 1; i < n; ++i) ASSERT_LE(rkeys.get(i - 1), rkeys.get(i));
      // probability rows along the last axis.
      const NdArray& probs = d.arrays.at("probs");
      for (int64_t r = 0; r < h; ++r) {
        double s = 0;
        for (int64_t k = 0; k < n; ++k) {
          ASSERT_GT(probs.get(r * n + k), 0.0);
          s += probs.get(r * n + k);
        }
        ASSERT_NEAR(s, 1.0, 10 * tol);
      }
      // text over the alphabets, every letter used.
      std::set<char> dna, msg;
      for (int64_t i = 0; i < e; ++i) dna.insert(static_cast<char>(d.arrays.at("dna").get(i)));
      for (int64_t i = 0; i < h * n; ++i) msg.insert(static_cast<char>(d.arrays.at("msg").get(i)));
      EXPECT_EQ(dna, (std::set<char>{'A', 'C', 'G', 'T'}));
      EXPECT_EQ(msg, (std::set<char>{'a', 'b', 'c', ' ', ',', '.', '!', '\n'}));
      // int8 with its full range.
      const NdArray& small = d.arrays.at("small");
      EXPECT_EQ(small.dtype(), DType::kInt8);
      bool negative = false;
      for (int64_t i = 0; i < n; ++i) negative = negative || small.get(i) < 0;
      EXPECT_TRUE(negative);
    }
  }
}

TEST(StructuredInputs, BitIdenticalForAnyThreadCountAndDistinctPerSeed) {
  TempDir tmp;
  Manifest m = load_json(tmp, structured_json());
  for (const char* preset : {"S", "XL"}) {
    const SymbolTable& sizes = m.presets.at(preset);
    Draw one = draw(m, 9, sizes, 1);
    for (int threads : {2, 3, 8}) {
      Draw many = draw(m, 9, sizes, threads);
      for (const auto& [name, a] : one.arrays) {
        EXPECT_TRUE(a.bytes_equal(many.arrays.at(name))) << name << " threads " << threads;
      }
    }
    Draw other = draw(m, 10, sizes, 1);
    for (const char* name : {"band", "dd", "q", "gi", "gw", "di", "keys", "probs", "dna", "msg"}) {
      EXPECT_FALSE(one.arrays.at(name).bytes_equal(other.arrays.at(name))) << name;
    }
  }
}

// `j` does not load, and the error names `field` and says `what`.
void expect_error(const json& j, const std::string& field, const std::string& what) {
  TempDir tmp;
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  ASSERT_FALSE(m.ok()) << field;
  EXPECT_NE(m.error().message.find(field), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find(what), std::string::npos) << m.error().message;
}

TEST(StructuredInputs, ManifestErrorsNameTheField) {
  auto j = structured_json();
  j["initializers"][0]["kind"] = "tridiagonal";
  expect_error(j, "initializers[0].kind", "expected spd, diag_dominant");
  j = structured_json();
  j["initializers"][0].erase("lower");
  expect_error(j, "initializers[0].lower", "missing");
  j = structured_json();
  j["initializers"][0]["dominant"] = "yes";
  expect_error(j, "initializers[0].dominant", "expected true or false");
  j = structured_json();
  j["initializers"][2]["array"] = "probs";  // B x N is not square... and probs is taken
  expect_error(j, "initializers[", "'probs' is filled by two initializers");
  j = structured_json();
  j["arrays"]["q"]["shape"] = json::array({"N"});
  expect_error(j, "initializers[2].array", "orthogonal needs a square 2-D array");
  j = structured_json();
  j["arrays"]["gw"].erase("domain");
  expect_error(j, "initializers[3].weights", "needs an interval domain");
  j = structured_json();
  j["arrays"]["gi"]["shape"] = json::array({"N"});  // 50 entries: 25 edges < 49 for a tree
  j["arrays"]["gw"]["shape"] = json::array({"N"});
  expect_error(j, "initializers[3]", "needs at least 49 edges, got 25 at preset S");
  j = structured_json();
  j["arrays"]["gi"]["shape"] = json::array({"E + 1"});
  j["arrays"]["gw"]["shape"] = json::array({"E + 1"});
  expect_error(j, "initializers[3]", "must be even");
  j = structured_json();
  j["arrays"]["di"]["shape"] = json::array({"N * N"});
  expect_error(j, "initializers[4]", "do not fit 50 vertices");
  j = structured_json();
  j["initializers"][5]["array"] = "dna";
  j["initializers"][8]["array"] = "keys";
  expect_error(j, "initializers[8].array", "'keys' must be uint8 or int8");
  j = structured_json();
  j["initializers"][8]["alphabet"] = "ACGA";
  expect_error(j, "initializers[8].alphabet", "distinct ASCII");
  j = structured_json();
  j["initializers"][8]["alphabet"] = "";
  expect_error(j, "initializers[8].alphabet", "must not be empty");
  j = structured_json();
  j["initializers"][9]["alphabet"] = "\u00e9t\u00e9";
  expect_error(j, "initializers[9].alphabet", "distinct ASCII");
  j = structured_json();
  j["arrays"]["small"]["range"] = json::array({-129, 0});
  TempDir tmp;
  // An int8 range beyond the type loads (ranges may be expressions) but never draws.
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  DrawSpec s;
  s.sizes = m->presets.at("S");
  auto d = generate_draw(*m, s);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("does not fit int8"), std::string::npos) << d.error().message;
}

// A kernel with a discrete fuzz set and constraints (N a power of two, M a multiple of 4 no
// larger than N).
json constrained_json() {
  auto j = testing::minimal_manifest("constrained");
  j["sizes"] = json::parse(R"({"S": {"N": 64, "M": 16}, "M": {"N": 1024, "M": 256},
                               "L": {"N": 4096, "M": 1024}, "XL": {"N": 16384, "M": 4096}})");
  // About one attempt in five satisfies the constraints (M <= 8 where N is 8...): redrawing
  // finds sizes for every seed.
  j["fuzzed"] = json::parse(R"({"N": {"one_of": [8, 16, 32, 64, 128]}, "M": [1, 32]})");
  j["constraints"] = json::array({"pow(2, log2(N)) == N", "M % 4 == 0", "M <= N"});
  j["arrays"]["b"] = array_spec({"N", "M"}, "real");
  return j;
}

TEST(StructuredInputs, FuzzSetsAndConstraintsHoldOnEveryFuzzedDraw) {
  TempDir tmp;
  Manifest m = load_json(tmp, constrained_json());
  ASSERT_EQ(m.fuzzed.at("N").values, (std::vector<int64_t>{8, 16, 32, 64, 128}));
  EXPECT_EQ(m.fuzzed.at("N").lo, 8);
  EXPECT_EQ(m.fuzzed.at("N").hi, 128);
  std::set<int64_t> ns, ms;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    auto s = fuzzed_sizes_drawn(m, seed);
    ASSERT_TRUE(s) << seed;
    ASSERT_FALSE(violated_constraint(m, *s)) << seed;
    ns.insert(s->at("N"));
    ms.insert(s->at("M"));
    ASSERT_EQ(fuzzed_sizes(m, seed), *s);  // deterministic
  }
  EXPECT_EQ(ns, (std::set<int64_t>{8, 16, 32, 64, 128}));
  EXPECT_EQ(ms, (std::set<int64_t>{4, 8, 12, 16, 20, 24, 28, 32}));
  // The generator refuses sizes that break a constraint instead of drawing them.
  DrawSpec spec;
  spec.sizes = {{"N", 100}, {"M", 16}};
  auto d = generate_draw(m, spec);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("pow(2, log2(N)) == N"), std::string::npos);
}

TEST(StructuredInputs, ConstraintErrorsNameTheField) {
  auto j = constrained_json();
  j["sizes"]["L"]["M"] = 1022;
  expect_error(j, "constraints[1]", "'M % 4 == 0' does not hold at preset L (M=1022, N=4096)");
  j = constrained_json();
  j["constraints"][0] = "N >= Q";
  expect_error(j, "constraints[0]", "unknown symbol 'Q'");
  j = constrained_json();
  j["constraints"][0] = "N = 4";
  expect_error(j, "constraints[0]", "unknown operator");
  j = constrained_json();
  j["constraints"][0] = "N";
  expect_error(j, "constraints[0]", "expected a comparison");
  j = constrained_json();
  j["constraints"] = "M <= N";
  expect_error(j, "constraints", "expected a list");
  j = constrained_json();
  j["constraints"][0] = 7;
  expect_error(j, "constraints[0]", "expected a string");
  j = constrained_json();
  j["fuzzed"]["N"] = json::parse(R"({"one_of": []})");
  expect_error(j, "fuzzed.N.one_of", "non-empty list");
  j = constrained_json();
  j["fuzzed"]["N"] = json::parse(R"({"one_of": [8, 8]})");
  expect_error(j, "fuzzed.N.one_of", "duplicate 8");
  j = constrained_json();
  j["fuzzed"]["N"] = json::parse(R"({"one_of": [8, 0]})");
  expect_error(j, "fuzzed.N.one_of", "positive integers");
  j = constrained_json();
  j["fuzzed"]["N"] = json::parse(R"({"values": [8]})");
  expect_error(j, "fuzzed.N.values", "unknown field");
  j = constrained_json();
  // Every N in the set is below every M: no attempt can satisfy M <= N.
  j["fuzzed"] = json::parse(R"({"N": {"one_of": [8, 16]}, "M": [100, 200]})");
  expect_error(j, "fuzzed", "the constraints reject all 64 attempts");
}

}  // namespace
}  // namespace hpcab
