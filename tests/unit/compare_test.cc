#include "common/compare.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace hpcab {
namespace {

using S = CompareResult::Status;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
NdArray make(DType dtype, std::vector<int64_t> shape, std::initializer_list<T> values) {
  NdArray a(dtype, std::move(shape));
  EXPECT_EQ(static_cast<int64_t>(values.size()), a.size());
  T* p = a.as<T>();
  for (T v : values) *p++ = v;
  return a;
}

NdArray f64(std::initializer_list<double> v) {
  return make<double>(DType::kFloat64, {static_cast<int64_t>(v.size())}, v);
}
NdArray f32(std::initializer_list<float> v) {
  return make<float>(DType::kFloat32, {static_cast<int64_t>(v.size())}, v);
}

CompareOptions fp64() { return CompareOptions{Precision::kFp64, std::nullopt}; }
CompareOptions fp32() { return CompareOptions{Precision::kFp32, std::nullopt}; }
CompareOptions with_length(Precision p, int64_t l) { return CompareOptions{p, l}; }

CompareResult cmp(const NdArray& e, const NdArray& a, const CompareOptions& o = fp64()) {
  return compare_array("x", e, a, o);
}

TEST(ToleranceBand, MatchesSpec) {
  EXPECT_EQ(tolerance_band(Precision::kFp64).rtol, 1e-9);
  EXPECT_EQ(tolerance_band(Precision::kFp64).atol, 1e-11);
  EXPECT_EQ(tolerance_band(Precision::kFp32).rtol, 1e-3);
  EXPECT_EQ(tolerance_band(Precision::kFp32).atol, 1e-5);
}

TEST(CompareReal, IdenticalPasses) {
  const NdArray e = f64({1.0, -2.5, 3e100, 0.0});
  const CompareResult r = cmp(e, e);
  EXPECT_EQ(r.status, S::kPass);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.max_rel_error, 0.0);
  EXPECT_FALSE(r.first_failure.has_value());
}

TEST(CompareReal, Fp64BandEdges) {
  EXPECT_TRUE(cmp(f64({1.0}), f64({1.0 + 5e-10})).passed());
  EXPECT_EQ(cmp(f64({1.0}), f64({1.0 + 2e-9})).status, S::kFail);
  EXPECT_TRUE(cmp(f64({0.0}), f64({5e-12})).passed());  // atol alone
  EXPECT_EQ(cmp(f64({0.0}), f64({2e-11})).status, S::kFail);
  EXPECT_TRUE(cmp(f64({-1e6}), f64({-1e6 * (1 + 9e-10)})).passed());
}

TEST(CompareReal, Fp32BandEdges) {
  EXPECT_TRUE(cmp(f32({1.0f}), f32({1.0005f}), fp32()).passed());
  EXPECT_EQ(cmp(f32({1.0f}), f32({1.002f}), fp32()).status, S::kFail);
  EXPECT_TRUE(cmp(f32({0.0f}), f32({5e-6f}), fp32()).passed());
  EXPECT_EQ(cmp(f32({0.0f}), f32({2e-5f}), fp32()).status, S::kFail);
  // The fp64 band applied to the same float64 data fails it.
  EXPECT_EQ(cmp(f64({1.0}), f64({1.0005})).status, S::kFail);
  EXPECT_TRUE(cmp(f64({1.0}), f64({1.0005}), fp32()).passed());
}

TEST(CompareReal, Float32ArrayInFp64RunUsesFp32Band) {
  // Float32 storage cannot hold fp64 accuracy: one float ulp must not fail an fp64 run.
  const float one_ulp_up = std::nextafter(1.0f, 2.0f);
  EXPECT_TRUE(cmp(f32({1.0f}), f32({one_ulp_up}), fp64()).passed());
}

TEST(CompareReal, NaNInBothPasses) {
  EXPECT_TRUE(cmp(f64({1.0, kNaN, 2.0}), f64({1.0, kNaN, 2.0})).passed());
  EXPECT_TRUE(cmp(f64({-kNaN}), f64({kNaN})).passed());  // NaN sign and payload are irrelevant
  EXPECT_TRUE(cmp(f32({std::nanf("")}), f32({std::nanf("")}), fp32()).passed());
}

TEST(CompareReal, NaNOnOneSideFails) {
  const CompareResult r1 = cmp(f64({1.0, kNaN}), f64({1.0, 0.0}));
  EXPECT_EQ(r1.status, S::kFail);
  ASSERT_TRUE(r1.first_failure.has_value());
  EXPECT_EQ(r1.first_failure->index, 1);
  EXPECT_TRUE(std::isnan(r1.first_failure->expected));
  EXPECT_NE(r1.detail.find("NaN"), std::string::npos) << r1.detail;

  const CompareResult r2 = cmp(f64({1.0, 2.0}), f64({1.0, kNaN}));
  EXPECT_EQ(r2.status, S::kFail);
  EXPECT_EQ(r2.first_failure->index, 1);
  EXPECT_TRUE(std::isnan(r2.first_failure->actual));
  EXPECT_EQ(cmp(f32({1.0f}), f32({std::nanf("")}), fp32()).status, S::kFail);
}

TEST(CompareReal, InfSameSignPasses) {
  EXPECT_TRUE(cmp(f64({kInf, -kInf}), f64({kInf, -kInf})).passed());
  EXPECT_TRUE(cmp(f32({INFINITY, -INFINITY}), f32({INFINITY, -INFINITY}), fp32()).passed());
}

TEST(CompareReal, InfOppositeSignFails) {
  EXPECT_EQ(cmp(f64({kInf}), f64({-kInf})).status, S::kFail);
  EXPECT_EQ(cmp(f64({-kInf}), f64({kInf})).status, S::kFail);
}

TEST(CompareReal, InfVersusFiniteFails) {
  EXPECT_EQ(cmp(f64({kInf}), f64({1.0})).status, S::kFail);
  EXPECT_EQ(cmp(f64({1.0}), f64({kInf})).status, S::kFail);
  // Inf * rtol is Inf; the comparator must not let any finite value pass against it.
  EXPECT_EQ(cmp(f64({kInf}), f64({DBL_MAX})).status, S::kFail);
  EXPECT_EQ(cmp(f64({-DBL_MAX}), f64({-kInf})).status, S::kFail);
  EXPECT_EQ(cmp(f64({kInf}), f64({kNaN})).status, S::kFail);
  const CompareResult r = cmp(f64({kInf}), f64({1.0}));
  EXPECT_NE(r.detail.find("Inf"), std::string::npos) << r.detail;
}

TEST(CompareReal, FiniteDifferenceOverflowFails) {
  const CompareResult r = cmp(f64({DBL_MAX}), f64({-DBL_MAX}));
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.max_rel_error, kInf);
}

TEST(CompareReal, NegativeZeroEqualsZero) {
  EXPECT_TRUE(cmp(f64({-0.0, 0.0}), f64({0.0, -0.0})).passed());
  EXPECT_TRUE(cmp(f32({-0.0f}), f32({0.0f}), fp32()).passed());
  EXPECT_EQ(cmp(f64({-0.0}), f64({0.0})).max_rel_error, 0.0);
}

TEST(CompareReal, DenormalsComparedNormally) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const CompareResult r = cmp(f64({tiny, 3 * tiny, 0.0}), f64({2 * tiny, 3 * tiny, tiny}));
  EXPECT_TRUE(r.passed());
  // Without flush-to-zero, 2*tiny against tiny is a relative error of exactly 1; against 0
  // it is the absolute difference tiny.
  EXPECT_EQ(r.max_rel_error, 1.0);
  const float ftiny = std::numeric_limits<float>::denorm_min();
  const CompareResult r32 = cmp(f32({ftiny}), f32({3 * ftiny}), fp32());
  EXPECT_TRUE(r32.passed());
  EXPECT_EQ(r32.max_rel_error, 2.0);
}

TEST(CompareReal, MaxRelErrorOverFiniteElements) {
  const CompareResult r =
      cmp(f64({2.0, 0.0, kNaN, kInf, 4.0}), f64({2.0 + 2e-10, 3e-12, kNaN, kInf, 4.0 - 4e-10}));
  EXPECT_TRUE(r.passed());
  EXPECT_NEAR(r.max_rel_error, 1e-10, 1e-15);
}

TEST(CompareReal, FailureStillReportsMaxRelError) {
  const CompareResult r = cmp(f64({1.0, 10.0, 100.0}), f64({1.5, 10.0, 300.0}));
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->index, 0);
  EXPECT_DOUBLE_EQ(r.max_rel_error, 2.0);
}

TEST(CompareReal, EmptyArrayPasses) {
  const NdArray e(DType::kFloat64, {0});
  EXPECT_TRUE(cmp(e, e).passed());
  const NdArray s(DType::kInt32, {3, 0});
  EXPECT_TRUE(cmp(s, s).passed());
}

TEST(CompareReal, DetailNamesOutputIndexValuesAndTolerance) {
  NdArray e(DType::kFloat64, {20, 30});
  for (int64_t i = 0; i < e.size(); ++i) e.as<double>()[i] = 0.1 * static_cast<double>(i);
  NdArray a = e;
  a.as<double>()[3 * 30 + 17] = 0.25;  // flat 107
  a.as<double>()[5 * 30 + 1] = 0.5;    // a later failure must not be the one reported
  const CompareResult r = compare_array("C", e, a, fp64());
  ASSERT_EQ(r.status, S::kFail);
  ASSERT_TRUE(r.first_failure.has_value());
  EXPECT_EQ(r.first_failure->output, "C");
  EXPECT_EQ(r.first_failure->index, 107);
  EXPECT_EQ(r.first_failure->expected, 0.1 * 107);
  EXPECT_EQ(r.first_failure->actual, 0.25);
  EXPECT_NE(r.detail.find("C[3,17] (flat 107)"), std::string::npos) << r.detail;
  char expected_text[64];
  std::snprintf(expected_text, sizeof expected_text, "expected %.17g", 0.1 * 107);
  EXPECT_NE(r.detail.find(expected_text), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("actual 0.25"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("rtol 1e-09"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("atol 1e-11"), std::string::npos) << r.detail;
}

TEST(CompareReal, DetailOfScalarShapedOutput) {
  const NdArray e = make<double>(DType::kFloat64, {}, {1.0});
  const NdArray a = make<double>(DType::kFloat64, {}, {2.0});
  const CompareResult r = compare_array("s", e, a, fp64());
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_NE(r.detail.find("s[] (flat 0)"), std::string::npos) << r.detail;
}

TEST(CompareReal, FirstFailureIsLowestIndexInLargeArrays) {
  // Large enough to take the parallel path; the reported failure must not depend on threads.
  const int64_t n = int64_t{1} << 21;
  NdArray e(DType::kFloat64, {n});
  for (int64_t i = 0; i < n; ++i) e.as<double>()[i] = static_cast<double>(i % 1000) + 1.0;
  NdArray a = e;
  for (int64_t bad : {int64_t{1900000}, int64_t{700001}, n - 1, int64_t{1500000}}) {
    a.as<double>()[bad] += 1.0;
  }
  for (int rep = 0; rep < 5; ++rep) {
    const CompareResult r = cmp(e, a);
    ASSERT_EQ(r.status, S::kFail);
    EXPECT_EQ(r.first_failure->index, 700001);
    EXPECT_EQ(r.max_rel_error, 1.0);  // the failure at value 1.0 (i % 1000 == 0 at 1500000)
  }
  NdArray f(DType::kInt64, {n});
  NdArray g = f;
  g.as<int64_t>()[n - 2] = 1;
  g.as<int64_t>()[1234567] = 1;
  EXPECT_EQ(cmp(f, g).first_failure->index, 1234567);
}

TEST(CompareReal, LargeArraysWithSpecialValues) {
  // Blocks holding NaN or Inf take the exact path; their max relative error must still count
  // finite pairs only, and agree with blocks of finite values.
  const int64_t n = int64_t{1} << 20;
  for (DType t : {DType::kFloat64, DType::kFloat32}) {
    NdArray e(t, {n});
    NdArray a(t, {n});
    auto set = [&](NdArray& x, int64_t i, double v) {
      if (t == DType::kFloat64) {
        x.as<double>()[i] = v;
      } else {
        x.as<float>()[i] = static_cast<float>(v);
      }
    };
    for (int64_t i = 0; i < n; ++i) {
      set(e, i, 1.0 + static_cast<double>(i % 7));
      set(a, i, 1.0 + static_cast<double>(i % 7));
    }
    const CompareOptions o = t == DType::kFloat64 ? fp64() : fp32();
    const double rel = t == DType::kFloat64 ? 4e-10 : 4e-4;
    set(e, 500000, kNaN);
    set(a, 500000, kNaN);
    set(e, 500001, -kInf);
    set(a, 500001, -kInf);
    set(e, 500007, 1.0);  // same block as the specials; the largest relative error
    set(a, 500007, 1.0 + rel);
    set(e, 900000, 2.0);  // a block of finite values only
    set(a, 900000, 2.0 * (1 + rel / 2));
    CompareResult r = compare_array("x", e, a, o);
    EXPECT_TRUE(r.passed()) << r.detail;
    EXPECT_NEAR(r.max_rel_error, rel, rel * 1e-3);

    set(a, 700000, kInf);  // Inf against a finite value: fails, and adds no relative error
    set(a, 800000, kNaN);
    r = compare_array("x", e, a, o);
    EXPECT_EQ(r.status, S::kFail);
    EXPECT_EQ(r.first_failure->index, 700000);
    EXPECT_NEAR(r.max_rel_error, rel, rel * 1e-3);

    set(e, 600000, kNaN);  // NaN expected, finite actual, before the others
    r = compare_array("x", e, a, o);
    EXPECT_EQ(r.first_failure->index, 600000);
  }
}

TEST(CompareInteger, LargeArrays) {
  const int64_t n = int64_t{1} << 20;
  NdArray b(DType::kBool, {n});
  NdArray c = b;
  for (int64_t i = 0; i < n; i += 3) b.as<uint8_t>()[i] = 1;
  for (int64_t i = 0; i < n; i += 3) c.as<uint8_t>()[i] = 2;  // true in another spelling
  EXPECT_TRUE(cmp(b, c).passed());
  const int64_t k = (n - 10) / 3 * 3;  // b[k] is true, b[k + 1] false
  c.as<uint8_t>()[k + 1] = 1;
  c.as<uint8_t>()[k] = 0;
  EXPECT_EQ(cmp(b, c).first_failure->index, k);

  NdArray u(DType::kUint16, {n});
  NdArray v = u;
  v.as<uint16_t>()[300000] = 0x8000;
  v.as<uint16_t>()[300001] = 1;
  EXPECT_EQ(cmp(u, v).first_failure->index, 300000);
  NdArray w(DType::kUint8, {n});
  NdArray x = w;
  x.as<uint8_t>()[123456] = 128;
  EXPECT_EQ(cmp(w, x).first_failure->index, 123456);
}

TEST(CompareInteger, Int32OffByOneFails) {
  const NdArray e = make<int32_t>(DType::kInt32, {3}, {1, 2, 3});
  const NdArray a = make<int32_t>(DType::kInt32, {3}, {1, 2, 4});
  const CompareResult r = compare_array("idx", e, a, fp32());
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->index, 2);
  EXPECT_EQ(r.first_failure->expected, 3.0);
  EXPECT_EQ(r.first_failure->actual, 4.0);
  EXPECT_NE(r.detail.find("idx[2] (flat 2): expected 3, actual 4"), std::string::npos) << r.detail;
  EXPECT_EQ(r.max_rel_error, 0.0);  // integer outputs carry no relative error
  EXPECT_TRUE(compare_array("idx", e, e, fp64()).passed());
}

TEST(CompareInteger, Int64NearTwoToThe62OffByOneFails) {
  // 2^62 and 2^62 + 1 are the same double; the comparison must use the integers.
  const int64_t big = int64_t{1} << 62;
  ASSERT_EQ(static_cast<double>(big), static_cast<double>(big + 1));
  const NdArray e = make<int64_t>(DType::kInt64, {2}, {7, big});
  const NdArray a = make<int64_t>(DType::kInt64, {2}, {7, big + 1});
  const CompareResult r = cmp(e, a);
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->index, 1);
  EXPECT_NE(r.detail.find("expected 4611686018427387904, actual 4611686018427387905"),
            std::string::npos)
      << r.detail;
  const int64_t above53 = (int64_t{1} << 53) + 1;
  EXPECT_EQ(cmp(make<int64_t>(DType::kInt64, {1}, {above53}),
                make<int64_t>(DType::kInt64, {1}, {above53 + 1}))
                .status,
            S::kFail);
  EXPECT_TRUE(cmp(e, e).passed());
}

TEST(CompareInteger, Uint16AndUint8OffByOneFail) {
  EXPECT_EQ(cmp(make<uint16_t>(DType::kUint16, {2}, {65535, 0}),
                make<uint16_t>(DType::kUint16, {2}, {65534, 0}))
                .status,
            S::kFail);
  const CompareResult r =
      cmp(make<uint8_t>(DType::kUint8, {2}, {0, 255}), make<uint8_t>(DType::kUint8, {2}, {0, 254}));
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_NE(r.detail.find("expected 255, actual 254"), std::string::npos) << r.detail;
}

TEST(CompareInteger, BoolMismatchFails) {
  const NdArray e = make<uint8_t>(DType::kBool, {3}, {1, 0, 1});
  const NdArray a = make<uint8_t>(DType::kBool, {3}, {1, 0, 0});
  const CompareResult r = cmp(e, a);
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->index, 2);
  EXPECT_NE(r.detail.find("expected true, actual false"), std::string::npos) << r.detail;
  EXPECT_TRUE(cmp(e, e).passed());
}

TEST(CompareInteger, BoolComparesTruthValues) {
  // A Fortran .true. may not be stored as byte 1; it is still true.
  EXPECT_TRUE(
      cmp(make<uint8_t>(DType::kBool, {1}, {1}), make<uint8_t>(DType::kBool, {1}, {255})).passed());
}

TEST(CompareInteger, ReductionLengthIsIrrelevantToExactOutputs) {
  const NdArray e = make<int32_t>(DType::kInt32, {1}, {5});
  EXPECT_TRUE(compare_array("n", e, e, with_length(Precision::kFp32, 100000)).passed());
}

TEST(CompareStructure, ShapeMismatchFails) {
  const NdArray e(DType::kFloat64, {2, 3});
  const NdArray a(DType::kFloat64, {3, 2});  // same element count, different shape
  const CompareResult r = compare_array("C", e, a, fp64());
  EXPECT_EQ(r.status, S::kFail);
  ASSERT_TRUE(r.first_failure.has_value());
  EXPECT_EQ(r.first_failure->index, -1);
  EXPECT_EQ(r.first_failure->output, "C");
  EXPECT_NE(r.detail.find("shape mismatch"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("(2, 3)"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("(3, 2)"), std::string::npos) << r.detail;
  EXPECT_EQ(cmp(NdArray(DType::kFloat64, {5}), NdArray(DType::kFloat64, {5, 1})).status, S::kFail);
}

TEST(CompareStructure, DtypeMismatchFails) {
  const NdArray e(DType::kFloat64, {4});
  const NdArray a(DType::kFloat32, {4});
  const CompareResult r = compare_array("y", e, a, fp64());
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->index, -1);
  EXPECT_NE(r.detail.find("dtype mismatch"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("float64"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("float32"), std::string::npos) << r.detail;
  EXPECT_EQ(cmp(NdArray(DType::kInt32, {1}), NdArray(DType::kInt64, {1})).status, S::kFail);
}

TEST(CompareReduction, Fp32LongReductionIsUngradeable) {
  // 100000 * FLT_EPSILON = 0.0119 >= 1e-3.
  const CompareResult r =
      cmp(f32({1.0f, 2.0f}), f32({1.0f, 2.0f}), with_length(Precision::kFp32, 100000));
  EXPECT_EQ(r.status, S::kUngradeable);
  EXPECT_FALSE(r.passed());
  EXPECT_NE(r.detail.find("reduction length 100000 times epsilon"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("cannot be graded at this precision"), std::string::npos) << r.detail;
  // A wildly wrong answer is still ungradeable, never a failure.
  const CompareResult wrong =
      cmp(f32({1.0f, 2.0f}), f32({-5.0f, NAN}), with_length(Precision::kFp32, 100000));
  EXPECT_EQ(wrong.status, S::kUngradeable);
  EXPECT_FALSE(wrong.first_failure.has_value());
  // Float64 data in an fp32 run is judged at fp32 too.
  EXPECT_EQ(cmp(f64({1.0}), f64({1.0}), with_length(Precision::kFp32, 100000)).status,
            S::kUngradeable);
}

TEST(CompareReduction, UngradeableBoundary) {
  // l * eps >= rtol exactly at the threshold; one less is gradeable.
  const int64_t l32 = static_cast<int64_t>(std::ceil(1e-3 / FLT_EPSILON));
  EXPECT_EQ(cmp(f32({1.0f}), f32({1.0f}), with_length(Precision::kFp32, l32)).status,
            S::kUngradeable);
  EXPECT_TRUE(cmp(f32({1.0f}), f32({1.0f}), with_length(Precision::kFp32, l32 - 1)).passed());
  EXPECT_TRUE(cmp(f64({1.0}), f64({1.0}), with_length(Precision::kFp64, 100000)).passed());
  EXPECT_EQ(cmp(f64({1.0}), f64({1.0}), with_length(Precision::kFp64, 5000000)).status,
            S::kUngradeable);
}

TEST(CompareReduction, FloorRaisesAtol) {
  // max|e| = 1000, l = 1000: floor = 1000 * 2.2e-16 * 1000 = 2.2e-10 > atol 1e-11.
  const NdArray e = f64({1000.0, 0.0, kNaN, kInf});
  const NdArray a = f64({1000.0, 1e-10, kNaN, kInf});
  const CompareResult without = cmp(e, a);
  EXPECT_EQ(without.status, S::kFail);
  EXPECT_EQ(without.first_failure->index, 1);
  const CompareResult with = cmp(e, a, with_length(Precision::kFp64, 1000));
  EXPECT_TRUE(with.passed()) << with.detail;
  EXPECT_NE(with.detail.find("reduction floor"), std::string::npos) << with.detail;
  // The floor scales with max|e| over finite elements only (NaN and Inf are ignored), so it
  // stays finite and a value beyond it still fails.
  const NdArray far = f64({1000.0, 1e-9, kNaN, kInf});
  EXPECT_EQ(cmp(e, far, with_length(Precision::kFp64, 1000)).status, S::kFail);
}

TEST(CompareReduction, FloorBelowBandKeepsBandAtol) {
  const NdArray e = f64({1e-3, 0.0});
  const NdArray a = f64({1e-3, 2e-11});
  EXPECT_EQ(cmp(e, a, with_length(Precision::kFp64, 10)).status, S::kFail);
}

TEST(CompareOutputs, SecondOutputFails) {
  const NdArray a_e = f64({1.0, 2.0});
  const NdArray a_a = f64({1.0, 2.0 + 2e-10});  // rel 1e-10, passes
  const NdArray b_e = f64({4.0, 8.0});
  const NdArray b_a = f64({4.0, 8.0 + 8e-8});  // rel 1e-8, fails
  const NdArray c_e = f64({1.0});
  const NdArray c_a = f64({100.0});  // not compared: it comes after the failure
  const std::vector<NamedArray> expected = {{"A", &a_e}, {"B", &b_e}, {"C", &c_e}};
  const std::vector<NamedArray> actual = {{"C", &c_a}, {"B", &b_a}, {"A", &a_a}};
  const CompareResult r = compare_outputs(expected, actual, fp64());
  EXPECT_EQ(r.status, S::kFail);
  ASSERT_TRUE(r.first_failure.has_value());
  EXPECT_EQ(r.first_failure->output, "B");
  EXPECT_EQ(r.first_failure->index, 1);
  EXPECT_NE(r.detail.find("B[1] (flat 1)"), std::string::npos) << r.detail;
  EXPECT_NEAR(r.max_rel_error, 1e-8, 1e-12);
}

TEST(CompareOutputs, AllPassKeepsMaxOverOutputs) {
  const NdArray a_e = f64({1.0});
  const NdArray a_a = f64({1.0 + 1e-10});
  const NdArray n_e = make<int64_t>(DType::kInt64, {2}, {1, 2});
  const NdArray b_e = f64({4.0});
  const NdArray b_a = f64({4.0 + 2e-9});
  const CompareResult r = compare_outputs({{"A", &a_e}, {"N", &n_e}, {"B", &b_e}},
                                          {{"A", &a_a}, {"N", &n_e}, {"B", &b_a}}, fp64());
  EXPECT_TRUE(r.passed()) << r.detail;
  EXPECT_NEAR(r.max_rel_error, 5e-10, 1e-15);
}

TEST(CompareOutputs, MissingOutputFailsNamingIt) {
  const NdArray e = f64({1.0});
  const CompareResult r = compare_outputs({{"A", &e}, {"Z", &e}}, {{"A", &e}}, fp64());
  EXPECT_EQ(r.status, S::kFail);
  EXPECT_EQ(r.first_failure->output, "Z");
  EXPECT_EQ(r.first_failure->index, -1);
  EXPECT_NE(r.detail.find("Z"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("missing"), std::string::npos) << r.detail;
}

TEST(CompareOutputs, ExactFailureOutranksUngradeable) {
  const NdArray r_e = f32({1.0f});
  const NdArray i_e = make<int32_t>(DType::kInt32, {1}, {3});
  const NdArray i_a = make<int32_t>(DType::kInt32, {1}, {4});
  const CompareOptions o = with_length(Precision::kFp32, 100000);
  const CompareResult fail =
      compare_outputs({{"R", &r_e}, {"I", &i_e}}, {{"R", &r_e}, {"I", &i_a}}, o);
  EXPECT_EQ(fail.status, S::kFail);
  EXPECT_EQ(fail.first_failure->output, "I");
  const CompareResult ung =
      compare_outputs({{"R", &r_e}, {"I", &i_e}}, {{"R", &r_e}, {"I", &i_e}}, o);
  EXPECT_EQ(ung.status, S::kUngradeable);
  EXPECT_NE(ung.detail.find("output R"), std::string::npos) << ung.detail;
}

TEST(CompareOutputs, NoOutputsPass) { EXPECT_TRUE(compare_outputs({}, {}, fp64()).passed()); }

}  // namespace
}  // namespace hpcab
