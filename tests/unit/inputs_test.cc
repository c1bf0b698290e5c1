#include "common/inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <numeric>
#include <vector>

#include "common/rng.h"
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
  for (const char* rel : {"scientific_computing/dense_linear_algebra/gemm",
                          "scientific_computing/sparse_linear_algebra/spmv",
                          "scientific_computing/dense_linear_algebra/cholesky",
                          "loop_level_reasoning/tsvc_2_s4112"}) {
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
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  Draw small = draw(m, 7, {{"N", 100}}, 0, Distribution::kUniform);
  Draw large = draw(m, 7, {{"N", 50000}}, 0, Distribution::kUniform);
  const double* a = small.arrays.at("b").as<double>();
  const double* b = large.arrays.at("b").as<double>();
  EXPECT_TRUE(std::equal(a, a + 100, b));
}

TEST(Inputs, DistributionsLookRight) {
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");  // b: domain any
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

// A kernel with one input per domain kind, so every folding loop of the generator is exercised.
Manifest domains_kernel(const TempDir& tmp) {
  auto j = testing::minimal_manifest("domains");
  j["arrays"]["pos"] = {
      {"shape", {"N"}}, {"dtype", "real"}, {"intent", "in"}, {"domain", "positive"}};
  j["arrays"]["nn"] = {{"shape", {"N"}}, {"dtype", "real"}, {"intent", "in"}, {"domain", "nonneg"}};
  j["arrays"]["iv"] = {{"shape", {"N"}},
                       {"dtype", "real"},
                       {"intent", "inout"},
                       {"domain", json::array({-2.0, 3.0})}};
  j["arrays"]["ix"] = {
      {"shape", {"N"}}, {"dtype", "int32"}, {"intent", "in"}, {"range", json::array({-5, 1000})}};
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return *m;
}

constexpr Distribution kAllDists[] = {Distribution::kUniform, Distribution::kNormal,
                                      Distribution::kLognormal};

TEST(Inputs, EveryDistributionAndPrecisionBitIdenticalForAnyThreadCount) {
  // Several generator chunks (256 elements) per thread, odd N: a ragged last chunk and a
  // half-used Philox block; above the parallel threshold so 2, 3 and 7 threads really split.
  TempDir tmp;
  Manifest m = domains_kernel(tmp);
  const SymbolTable sizes = {{"N", 100003}};
  for (Precision p : {Precision::kFp64, Precision::kFp32}) {
    for (Distribution dist : kAllDists) {
      Draw one = draw(m, 77, sizes, 1, dist, p);
      for (int threads : {2, 3, 7}) {
        EXPECT_TRUE(same_draw(one, draw(m, 77, sizes, threads, dist, p)))
            << precision_name(p) << " " << distribution_name(dist) << " threads " << threads;
      }
    }
  }
}

TEST(Inputs, EveryDistributionIsAPrefixOfALargerDraw) {
  // An element depends on its index only, not on where the array (or a chunk) ends.
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  for (Precision p : {Precision::kFp64, Precision::kFp32}) {
    for (Distribution dist : kAllDists) {
      for (int64_t small : {1, 255, 256, 257, 1001}) {
        Draw a = draw(m, 8, {{"N", small}}, 1, dist, p);
        Draw b = draw(m, 8, {{"N", 70001}}, 3, dist, p);
        const std::size_t bytes = a.arrays.at("b").nbytes();
        EXPECT_EQ(std::memcmp(a.arrays.at("b").data(), b.arrays.at("b").data(), bytes), 0)
            << distribution_name(dist) << " " << small;
      }
    }
  }
}

TEST(Inputs, ValuesAreTheDocumentedTransformsOfPhiloxBlocks) {
  // fp64: element 2k / 2k+1 from philox(seed, stream_id(name), k): uniform takes one 64-bit
  // half each; normal is Box-Muller (cos, sin) of (1 - u(w0:w1), u(w2:w3)); lognormal its exp.
  // libm is the reference here; the generator's own functions agree to a few ulp.
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  const int64_t n = 4099;
  const uint64_t seed = 12345, stream = stream_id("b");
  for (Distribution dist : kAllDists) {
    Draw d = draw(m, seed, {{"N", n}}, 2, dist);
    Draw f = draw(m, seed, {{"N", n}}, 2, dist, Precision::kFp32);
    const double* v = d.arrays.at("b").as<double>();
    const float* vf = f.arrays.at("b").as<float>();
    for (int64_t i = 0; i < n; ++i) {
      auto w = philox(seed, stream, static_cast<uint64_t>(i / 2));
      double expect;
      if (dist == Distribution::kUniform) {
        expect = i % 2 == 0 ? -1000.0 + 2000.0 * to_unit(w[0], w[1])
                            : -1000.0 + 2000.0 * to_unit(w[2], w[3]);
        ASSERT_EQ(v[i], expect) << i;  // exact: the uniform path has no approximation
      } else {
        const double radius = std::sqrt(-2.0 * std::log(to_unit_open0(w[0], w[1])));
        const double angle = 2.0 * std::numbers::pi * to_unit(w[2], w[3]);
        expect = radius * (i % 2 == 0 ? std::cos(angle) : std::sin(angle));
        if (dist == Distribution::kLognormal) expect = std::exp(expect);
        // libm's own rounding of 2 pi u costs up to ~1e-15 absolute in cos/sin.
        const double tol =
            dist == Distribution::kNormal ? 1e-14 * std::max(1.0, radius) : 1e-13 * expect;
        ASSERT_NEAR(v[i], expect, tol) << distribution_name(dist) << " " << i;
      }
    }
    // fp32: chunk c of 256 elements takes Philox blocks 64c .. 64c + 63, one 24-bit uniform
    // per 32-bit word; the chunk's element pair j (elements 2j, 2j + 1) takes words (w0, w1)
    // of its block j for j < 64, (w2, w3) of block j - 64 otherwise.
    for (int64_t i = 0; i < n; ++i) {
      const int64_t chunk = i / 256, j = i % 256 / 2;
      auto w = philox(seed, stream, static_cast<uint64_t>(chunk * 64 + j % 64));
      const uint32_t first = j < 64 ? w[0] : w[2], second = j < 64 ? w[1] : w[3];
      const float ua = static_cast<float>(first >> 8) * 0x1p-24f;
      const float ub = static_cast<float>(second >> 8) * 0x1p-24f;
      if (dist == Distribution::kUniform) {
        ASSERT_EQ(vf[i], -1000.0f + 2000.0f * (i % 2 == 0 ? ua : ub)) << i;
        continue;
      }
      const double radius = std::sqrt(-2.0 * std::log(1.0 - static_cast<double>(ua)));
      const double angle = 2.0 * std::numbers::pi * static_cast<double>(ub);
      double expect = radius * (i % 2 == 0 ? std::cos(angle) : std::sin(angle));
      // A few float ulps: of the radius for a normal (cos or sin near zero too), relative to
      // the result for a lognormal (exp carries the normal's absolute error into it).
      double tol = 8 * FLT_EPSILON * std::max(1.0, radius);
      if (dist == Distribution::kLognormal) {
        expect = std::exp(expect);
        tol = expect * (tol + 4 * FLT_EPSILON);
      }
      ASSERT_NEAR(vf[i], expect, tol) << "fp32 " << distribution_name(dist) << " " << i;
    }
  }
}

TEST(Inputs, StatisticsOfAMillionDraws) {
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");  // b: domain any
  const int64_t n = 1000000;
  struct Moments {
    double mean, var, lo, hi, log_mean, log_var;
  };
  auto moments = [&](Distribution dist, Precision p) {
    Draw d = draw(m, 2024, {{"N", n}}, 0, dist, p);
    std::vector<double> x(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      x[i] = p == Precision::kFp64 ? d.arrays.at("b").as<double>()[i]
                                   : static_cast<double>(d.arrays.at("b").as<float>()[i]);
    }
    Moments r{};
    r.lo = *std::min_element(x.begin(), x.end());
    r.hi = *std::max_element(x.begin(), x.end());
    r.mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    for (double v : x) r.var += (v - r.mean) * (v - r.mean) / n;
    if (r.lo > 0) {
      for (double v : x) r.log_mean += std::log(v) / n;
      for (double v : x) r.log_var += (std::log(v) - r.log_mean) * (std::log(v) - r.log_mean) / n;
    }
    return r;
  };
  for (Precision p : {Precision::kFp64, Precision::kFp32}) {
    SCOPED_TRACE(precision_name(p));
    // Bounds are about 5 standard errors of each estimate for n = 1e6.
    const Moments u = moments(Distribution::kUniform, p);
    EXPECT_GE(u.lo, -1000.0);
    EXPECT_LT(u.hi, 1000.0);
    EXPECT_LT(u.lo, -1000.0 + 0.1);  // both ends reached (expected gap 0.002)
    EXPECT_GT(u.hi, 1000.0 - 0.1);
    EXPECT_NEAR(u.mean, 0.0, 3.0);                     // se 0.58
    EXPECT_NEAR(u.var, 2000.0 * 2000.0 / 12, 2500.0);  // se ~ 447
    const Moments g = moments(Distribution::kNormal, p);
    EXPECT_NEAR(g.mean, 0.0, 0.005);  // se 0.001
    EXPECT_NEAR(g.var, 1.0, 0.008);   // se 0.0014
    EXPECT_GT(g.hi, 4.0);             // tails exist (P(max < 4) ~ e^-32)
    EXPECT_LT(g.lo, -4.0);
    EXPECT_LT(g.hi, 8.6);  // the largest Box-Muller radius, sqrt(-2 ln 2^-53)
    const Moments l = moments(Distribution::kLognormal, p);
    EXPECT_GT(l.lo, 0.0);
    EXPECT_NEAR(l.log_mean, 0.0, 0.005);
    EXPECT_NEAR(l.log_var, 1.0, 0.008);
    EXPECT_NEAR(l.mean, std::exp(0.5), 0.02);  // se ~ 0.0022
  }
}

TEST(Inputs, FoldedDomainsHoldForEveryDistribution) {
  TempDir tmp;
  Manifest m = domains_kernel(tmp);
  for (Precision p : {Precision::kFp64, Precision::kFp32}) {
    for (Distribution dist : kAllDists) {
      Draw d = draw(m, 5, {{"N", 20001}}, 2, dist, p);
      for (int64_t i = 0; i < 20001; ++i) {
        auto at = [&](const char* name) { return d.arrays.at(name).get(i); };
        ASSERT_GT(at("pos"), 0.0);
        ASSERT_GE(at("nn"), 0.0);
        ASSERT_GE(at("iv"), -2.0);
        ASSERT_LE(at("iv"), 3.0);
        ASSERT_GE(at("ix"), -5);
        ASSERT_LE(at("ix"), 1000);
      }
    }
  }
}

// 64-bit FNV-1a of a byte range, continuing from `h`.
uint64_t fnv1a(const void* data, size_t n, uint64_t h = 0xcbf29ce484222325ULL) {
  const auto* b = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

TEST(Generator, DrawsAreTheRecordedBitsOnEveryMachine) {
  // The same (seed, sizes, precision) must give the same bits on every machine, build flag and
  // vector width (docs/numerics.md): the fp64 digests were taken from the generator before its
  // AVX2 paths existed (GCC 12, -march=native on a Zen 1), the fp32 ones from the first float
  // generator (GCC 12, -march=native on a Sapphire Rapids, found identical built without it),
  // so a vector path, a compiler or a flag that changed one bit of any distribution fails here.
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  const uint64_t expected[3][2] = {{0x4d6bfdb5d87e9a31ULL, 0x2c7925269a2090adULL},
                                   {0x90fbc6e47a36de81ULL, 0x0479dff05fa7082dULL},
                                   {0xcd01a3417112952dULL, 0xb8735dbc348deec1ULL}};
  for (Distribution dist : kAllDists) {
    for (Precision p : {Precision::kFp64, Precision::kFp32}) {
      uint64_t h = 0xcbf29ce484222325ULL;
      for (uint64_t seed : {1ULL, 99ULL, 0xdeadbeefULL}) {
        for (int threads : {1, 3}) {
          // 100003 elements: a ragged last chunk, and above the parallel threshold.
          Draw d = draw(m, seed, {{"N", 100003}}, threads, dist, p);
          const NdArray& b = d.arrays.at("b");
          h = fnv1a(b.data(), static_cast<size_t>(b.nbytes()), h);
        }
      }
      const int di = static_cast<int>(dist), pi = p == Precision::kFp64 ? 0 : 1;
      EXPECT_EQ(h, expected[di][pi])
          << distribution_name(dist) << " " << precision_name(p) << ": 0x" << std::hex << h;
    }
  }
}

TEST(Generator, PhiloxBatchIsRandom123) {
  // Counters across a 2^32 boundary, so the counter's high word changes inside a batch.
  const uint64_t first = (uint64_t{1} << 32) - 5;
  std::vector<uint64_t> h01(300), h23(300);
  generator::philox_batch(0xfeedfacecafebeefULL, stream_id("x"), first, 300, h01.data(),
                          h23.data());
  for (int i = 0; i < 300; ++i) {
    auto w = philox(0xfeedfacecafebeefULL, stream_id("x"), first + i);
    ASSERT_EQ(h01[i], (uint64_t{w[0]} << 32) | w[1]) << i;
    ASSERT_EQ(h23[i], (uint64_t{w[2]} << 32) | w[3]) << i;
  }
}

// Error of `got` against a long-double reference, in units of the double ulp at the reference.
double ulps(double got, long double ref) {
  const double r = static_cast<double>(ref);
  const double ulp = std::nextafter(std::fabs(r), INFINITY) - std::fabs(r);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

TEST(Generator, LogIsAccurateOverTheUsedRange) {
  // The generator takes log of (0, 1] in steps of 2^-53: every binade down to 2^-53, the
  // values next to 1 (where f = x - 1 is tiny), and random points in between.
  std::vector<double> x;
  for (int e = 0; e <= 53; ++e) {
    for (int j = 0; j < 4000; ++j) x.push_back(std::ldexp(1.0 + j / 4000.0, -e - 1));
  }
  for (int j = 1; j < 2000; ++j) x.push_back(1.0 - j * 0x1p-53);
  // Either side of the reduction's switch at sqrt(1/2) 2^-e (the largest |s|).
  for (int e = 0; e <= 52; ++e) {
    for (int64_t d = -3; d <= 3; ++d) {
      const uint64_t bits = std::bit_cast<uint64_t>(0.5 * std::numbers::sqrt2) + d;
      x.push_back(std::ldexp(std::bit_cast<double>(bits), -e));
    }
  }
  for (int j = 0; j < 200000; ++j) {
    auto w = philox(1, 2, static_cast<uint64_t>(j));
    x.push_back(to_unit_open0(w[0], w[1]));
  }
  x.push_back(1.0);
  x.push_back(0x1p-53);
  std::vector<double> y(x.size());
  generator::log_batch(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] == 1.0) {
      ASSERT_EQ(y[i], 0.0);
      continue;
    }
    worst = std::max(worst, ulps(y[i], std::log(static_cast<long double>(x[i]))));
  }
  EXPECT_LT(worst, 1.0) << "max error " << worst << " ulp";
  // Beyond the generator's range it is still the usual log on normal numbers.
  for (double v : {DBL_MIN, 0.75, 2.0, 1e300, DBL_MAX}) {
    double r;
    generator::log_batch(&v, &r, 1);
    EXPECT_LT(ulps(r, std::log(static_cast<long double>(v))), 1.0) << v;
  }
}

TEST(Generator, ExpIsAccurateOverTheUsedRange) {
  // Lognormal takes exp of normal values, |x| <= 8.6; checked on [-10, 10] and sparsely to 708.
  std::vector<double> x;
  for (int j = 0; j <= 400000; ++j) x.push_back(-10.0 + 20.0 * j / 400000);
  for (int j = 0; j <= 10000; ++j) x.push_back(-708.0 + 1416.0 * j / 10000);
  for (double t = 1e-300; t < 1e-3; t *= 7.3) {
    x.push_back(t);
    x.push_back(-t);
  }
  std::vector<double> y(x.size());
  generator::exp_batch(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, ulps(y[i], std::exp(static_cast<long double>(x[i]))));
  }
  EXPECT_LT(worst, 1.0) << "max error " << worst << " ulp";
  const double zero = 0.0;
  double one;
  generator::exp_batch(&zero, &one, 1);
  EXPECT_EQ(one, 1.0);
}

TEST(Generator, SinCosOfTwoPiUAreAccurate) {
  // u in [0, 1) in steps of 2^-53; the quadrant boundaries and their neighbours included.
  std::vector<double> u;
  for (int j = 0; j < 400000; ++j) u.push_back(j / 400000.0);
  for (double q : {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875}) {
    for (int d = -3; d <= 3; ++d) u.push_back(q + d * 0x1p-53);
  }
  for (int d = 1; d <= 3; ++d) u.push_back(1.0 - d * 0x1p-53);
  for (int d = 1; d <= 3; ++d) u.push_back(d * 0x1p-53);
  std::vector<double> c(u.size()), s(u.size());
  generator::sincos_2pi_batch(u.data(), c.data(), s.data(), static_cast<int64_t>(u.size()));
  const long double two_pi = 6.283185307179586476925286766559005768L;
  double worst_abs = 0, worst_ulp = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    // The reference reduces exactly as well: u = q/4 + t with t = u - q/4 exact in double, so
    // the long double angle 2 pi t is relatively accurate. (2 pi u itself in long double is off
    // by up to ~2^-63 absolute, worth ~1 ulp of cos or sin within 1e-3 of their zeros.)
    const int q = static_cast<int>(std::nearbyint(4 * u[i]));
    const long double a = two_pi * static_cast<long double>(u[i] - 0.25 * q);
    const long double ca = std::cos(a), sa = std::sin(a);
    const long double cos_ref[4] = {ca, -sa, -ca, sa}, sin_ref[4] = {sa, ca, -sa, -ca};
    for (auto [got, ref] : {std::pair{c[i], cos_ref[q % 4]}, std::pair{s[i], sin_ref[q % 4]}}) {
      worst_abs = std::max(worst_abs, static_cast<double>(std::fabs(got - ref)));
      worst_ulp = std::max(worst_ulp, ulps(got, ref));  // relative everywhere, zeros included
    }
    ASSERT_LE(std::fabs(c[i]), 1.0);
    ASSERT_LE(std::fabs(s[i]), 1.0);
  }
  EXPECT_LT(worst_ulp, 1.0) << "max error " << worst_ulp << " ulp";
  EXPECT_LE(worst_abs, 0x1p-53) << "max absolute error " << worst_abs;
  double cs[2], sn[2];
  const double exact[2] = {0.0, 0.25};
  generator::sincos_2pi_batch(exact, cs, sn, 2);
  EXPECT_EQ(cs[0], 1.0);
  EXPECT_EQ(sn[0], 0.0);
  EXPECT_EQ(sn[1], 1.0);
}

// Error of `got` against a double reference, in units of the float ulp at the reference.
double float_ulps(float got, double ref) {
  const float r = std::fabs(static_cast<float>(ref));
  const double ulp = static_cast<double>(std::nextafter(r, INFINITY) - r);
  return std::fabs(static_cast<double>(got) - ref) / ulp;
}

TEST(Generator, FloatLogIsAccurateOnEveryUsedInput) {
  // The fp32 draw takes log of 1 - k 2^-24, k = 0 .. 2^24 - 1: all of them.
  const int64_t n = int64_t{1} << 24;
  std::vector<float> x(static_cast<std::size_t>(n)), y(x.size());
  for (int64_t k = 0; k < n; ++k) x[k] = 1.0f - static_cast<float>(k) * 0x1p-24f;
  generator::log_batch(x.data(), y.data(), n);
  ASSERT_EQ(y[0], 0.0f);
  double worst = 0;
  for (int64_t k = 1; k < n; ++k) {
    worst = std::max(worst, float_ulps(y[k], std::log(static_cast<double>(x[k]))));
  }
  EXPECT_LT(worst, 4.0) << "max error " << worst << " float ulp";
  // Beyond the draw's range it is still a float log on normal numbers.
  for (float v : {FLT_MIN, 0.75f, 2.0f, 1e30f, FLT_MAX}) {
    float r;
    generator::log_batch(&v, &r, 1);
    EXPECT_LT(float_ulps(r, std::log(static_cast<double>(v))), 4.0) << v;
  }
}

TEST(Generator, FloatExpIsAccurateOverTheUsedRange) {
  // Lognormal fp32 takes exp of float normals, |x| <= 5.8; [-10, 10] densely, to 87 sparsely.
  std::vector<float> x;
  for (int j = 0; j <= 1000000; ++j) x.push_back(-10.0f + 20.0f * static_cast<float>(j) / 1e6f);
  for (int j = 0; j <= 10000; ++j) x.push_back(-87.0f + 174.0f * static_cast<float>(j) / 1e4f);
  for (float t = 1e-30f; t < 1e-3f; t *= 7.3f) {
    x.push_back(t);
    x.push_back(-t);
  }
  std::vector<float> y(x.size());
  generator::exp_batch(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, float_ulps(y[i], std::exp(static_cast<double>(x[i]))));
  }
  EXPECT_LT(worst, 4.0) << "max error " << worst << " float ulp";
  const float zero = 0.0f;
  float one;
  generator::exp_batch(&zero, &one, 1);
  EXPECT_EQ(one, 1.0f);
}

TEST(Generator, FloatSinCosOfTwoPiUAreAccurate) {
  // u = k 2^-24: every seventh k, and every k within 64 of an eighth of a turn (the quadrant
  // switches and the ends of the polynomials' interval).
  std::vector<float> u;
  const int64_t n = int64_t{1} << 24;
  for (int64_t k = 0; k < n; k += 7) u.push_back(static_cast<float>(k) * 0x1p-24f);
  for (int64_t e = 0; e <= 8; ++e) {
    for (int64_t d = -64; d <= 64; ++d) {
      const int64_t k = e * (n / 8) + d;
      if (k >= 0 && k < n) u.push_back(static_cast<float>(k) * 0x1p-24f);
    }
  }
  std::vector<float> c(u.size()), s(u.size());
  generator::sincos_2pi_batch(u.data(), c.data(), s.data(), static_cast<int64_t>(u.size()));
  double worst_abs = 0, worst_ulp = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    // Reduced as the generator does, exactly (t = u - q/4 in double), so 2 pi t in double is
    // relatively accurate far beyond a float ulp.
    const double ud = u[i];
    const int q = static_cast<int>(std::nearbyint(4 * ud));
    const double a = 2 * std::numbers::pi * (ud - 0.25 * q);
    const double ca = std::cos(a), sa = std::sin(a);
    const double cos_ref[4] = {ca, -sa, -ca, sa}, sin_ref[4] = {sa, ca, -sa, -ca};
    for (auto [got, ref] : {std::pair{c[i], cos_ref[q % 4]}, std::pair{s[i], sin_ref[q % 4]}}) {
      worst_abs = std::max(worst_abs, std::fabs(static_cast<double>(got) - ref));
      if (ref != 0) worst_ulp = std::max(worst_ulp, float_ulps(got, ref));
    }
    ASSERT_LE(std::fabs(c[i]), 1.0f);
    ASSERT_LE(std::fabs(s[i]), 1.0f);
  }
  EXPECT_LT(worst_ulp, 4.0) << "max error " << worst_ulp << " float ulp";
  EXPECT_LE(worst_abs, 0x1p-23) << "max absolute error " << worst_abs;
  float cs[2], sn[2];
  const float exact[2] = {0.0f, 0.25f};
  generator::sincos_2pi_batch(exact, cs, sn, 2);
  EXPECT_EQ(cs[0], 1.0f);
  EXPECT_EQ(sn[0], 0.0f);
  EXPECT_EQ(sn[1], 1.0f);
}

TEST(Inputs, SeedChoosesDistributionUnlessForced) {
  EXPECT_EQ(distribution_for_seed(0), Distribution::kUniform);
  EXPECT_EQ(distribution_for_seed(1), Distribution::kNormal);
  EXPECT_EQ(distribution_for_seed(2), Distribution::kLognormal);
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
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
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s4112");  // ip int32 in [0, N-1]
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

  Manifest tsvc_2_s000 = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  Draw o = draw(tsvc_2_s000, 5, {{"N", 100}});
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

// Both paths of fill_poison (ordinary stores below 8 MiB, non-temporal ones above on an aligned
// pointer): every byte of the range holds the pattern at its phase, and nothing around it is
// touched, for lengths that are not a multiple of 64 or 8 and for an unaligned start.
TEST(Inputs, FillPoisonWritesThePatternAndNothingElse) {
  constexpr uint64_t kPattern = 0x0123456789abcdefULL;
  constexpr std::size_t kPad = 128;
  for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{4096 + 12},
                        (std::size_t{8} << 20) + 36, (std::size_t{9} << 20) + 64}) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{4}}) {
      NdArray buf(DType::kUint8, {static_cast<int64_t>(n + 2 * kPad)});  // 64-byte aligned
      auto* bytes = buf.as<uint8_t>();
      std::memset(bytes, 0x5a, buf.nbytes());
      fill_poison(bytes + kPad + offset, n, kPattern);
      for (std::size_t i = 0; i < buf.nbytes(); ++i) {
        const bool inside = i >= kPad + offset && i < kPad + offset + n;
        const auto want =
            inside ? static_cast<uint8_t>(kPattern >> (8 * ((i - kPad - offset) % 8))) : 0x5a;
        ASSERT_EQ(bytes[i], want) << "n " << n << " offset " << offset << " byte " << i;
      }
    }
  }
}

TEST(Inputs, LargeOutputsArePoisonedToo) {
  // 12 Mi fp32 elements (48 MiB): the non-temporal path, a quiet NaN in every element.
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  DrawSpec s;
  s.precision = Precision::kFp32;
  s.sizes = {{"N", (int64_t{12} << 20) + 3}};
  auto d = generate_draw(m, s);
  ASSERT_TRUE(d.ok());
  const NdArray& a = d->arrays.at("a");
  const uint32_t nan = std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN());
  for (int64_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(std::bit_cast<uint32_t>(a.as<float>()[i]), nan) << i;
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
      ASSERT_GE(s.at(sym), range.lo);
      ASSERT_LE(s.at(sym), range.hi);
    }
    seen.insert(s.at("NI"));
  }
  EXPECT_GT(seen.size(), 30u);
}

TEST(Inputs, AnAllocatedDrawRefilledIsTheGeneratedOne) {
  // The runner allocates its draw without values and fills it before every call: the first
  // call must see exactly what generate_draw would have given it.
  Manifest m = corpus_kernel("loop_level_reasoning/tsvc_2_s000");
  DrawSpec s;
  s.seed = 77;
  s.sizes = {{"N", 5000}};
  auto a = allocate_draw(m, s);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->arrays.at("b").get(17), 0.0);  // nothing generated yet
  ASSERT_TRUE(regenerate_draw(m, s, *a));
  EXPECT_TRUE(same_draw(*a, draw(m, 77, {{"N", 5000}})));
  EXPECT_EQ(a->distribution, distribution_for_seed(77));
  s.sizes = {{"N", 0}};
  EXPECT_FALSE(allocate_draw(m, s).ok());  // generate_draw's checks
}

TEST(Inputs, ASharedDrawHoldsTheGeneratedInputsAndNoOutputs) {
  // ludcmp: an initializer-built matrix, in-out and output arrays. What the judge writes into
  // a shared draw must be exactly what a runner generating the draw itself would have used.
  Manifest m = corpus_kernel("scientific_computing/dense_linear_algebra/ludcmp");
  const SymbolTable sizes = m.presets.at("S");
  auto layout = shared_draw_layout(m, Precision::kFp64, sizes);
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  uint64_t end = 0;
  for (const auto& e : layout->entries) {
    const ArraySpec* a = nullptr;
    for (const auto& x : m.arrays) a = x.name == e.name ? &x : a;
    ASSERT_NE(a, nullptr) << e.name;
    EXPECT_NE(a->intent, Intent::kOut) << e.name;
    EXPECT_EQ(e.offset % 4096, 0u) << e.name;
    EXPECT_GE(e.offset, end) << e.name << " overlaps the array before it";
    end = e.offset + e.bytes;
  }
  EXPECT_LE(end, layout->total_bytes);
  EXPECT_EQ(layout->total_bytes % 4096, 0u);
  std::vector<unsigned char> buffer(layout->total_bytes + 4096);
  void* base = buffer.data() + (4096 - reinterpret_cast<uintptr_t>(buffer.data()) % 4096) % 4096;
  Draw shared = shared_draw_view(m, Precision::kFp64, sizes, *layout, base);
  DrawSpec s;
  s.seed = 31;
  s.sizes = sizes;
  ASSERT_TRUE(regenerate_draw(m, s, shared));
  const Draw full = draw(m, 31, sizes);
  std::size_t compared = 0;
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut) {
      EXPECT_FALSE(shared.arrays.contains(a.name)) << a.name;
      continue;
    }
    ASSERT_TRUE(shared.arrays.at(a.name).is_view());
    EXPECT_TRUE(shared.arrays.at(a.name).bytes_equal(full.arrays.at(a.name))) << a.name;
    ++compared;
  }
  EXPECT_EQ(compared, layout->entries.size());
}

TEST(Inputs, DistributionsAreNamedAsTheProtocolNamesThem) {
  EXPECT_EQ(distribution_named("uniform"), Distribution::kUniform);
  EXPECT_EQ(distribution_named("normal"), Distribution::kNormal);
  EXPECT_EQ(distribution_named("lognormal"), Distribution::kLognormal);
  EXPECT_EQ(distribution_named("auto"), std::nullopt);
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
