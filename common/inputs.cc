#include "common/inputs.h"

#include <omp.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>
#include <type_traits>

#include "common/fill.h"
#include "common/initializers.h"
#include "common/rng.h"

namespace hpcab {

std::string_view distribution_name(Distribution d) {
  switch (d) {
    case Distribution::kUniform:
      return "uniform";
    case Distribution::kNormal:
      return "normal";
    case Distribution::kLognormal:
      return "lognormal";
  }
  return "?";
}

std::optional<Distribution> distribution_named(std::string_view name) {
  if (name == "uniform") return Distribution::kUniform;
  if (name == "normal") return Distribution::kNormal;
  if (name == "lognormal") return Distribution::kLognormal;
  return std::nullopt;
}

Distribution distribution_for_seed(uint64_t seed) { return static_cast<Distribution>(seed % 3); }

Result<SymbolTable> preset_sizes(const Manifest& m, const std::string& preset) {
  auto it = m.presets.find(preset);
  if (it == m.presets.end()) {
    return Error{"kernel '" + m.id + "' has no preset '" + preset + "' (expected S, M, L or XL)"};
  }
  return it->second;
}

double fold_into(const Domain& d, double x) {
  switch (d.kind) {
    case Domain::Kind::kAny:
      return x;
    case Domain::Kind::kPositive: {
      double a = std::fabs(x);
      return a < DBL_MIN ? DBL_MIN : a;
    }
    case Domain::Kind::kNonneg:
      return std::fabs(x);
    case Domain::Kind::kInterval: {
      // Triangle wave: reflect back and forth so the draw's shape survives inside [lo, hi].
      double w = d.hi - d.lo;
      double t = std::fmod(x - d.lo, 2 * w);
      if (t < 0) t += 2 * w;
      if (t > w) t = 2 * w - t;
      return d.lo + t;
    }
  }
  return x;
}

namespace generator {

// Everything below is plain IEEE double arithmetic (+ - * /, sqrt) and integer work, built with
// -ffp-contract=off: a vector lane and a scalar epilogue compute the same bits, so the draw
// does not depend on the thread count, on where a thread's share starts, nor on -march.

void philox_batch(uint64_t seed, uint64_t stream, uint64_t first, int64_t n,
                  uint64_t* __restrict h01, uint64_t* __restrict h23) {
  // Philox4x32-10 exactly as Random123 computes it (tests compare with r123::Philox4x32). The
  // 32-bit words live in 64-bit lanes so that each 32x32->64 product is one 64-bit vector
  // multiply and its halves are a shift and a mask, with no packing between rounds (markedly
  // faster than 32-bit lanes with GCC 12).
  constexpr uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u, kLow = 0xffffffffu;
  uint64_t key0[10], key1[10];
  key0[0] = seed & kLow;
  key1[0] = seed >> 32;
  for (int r = 1; r < 10; ++r) {
    key0[r] = (key0[r - 1] + 0x9E3779B9u) & kLow;
    key1[r] = (key1[r - 1] + 0xBB67AE85u) & kLow;
  }
  const uint64_t s0 = stream & kLow, s1 = stream >> 32;
  int64_t vectored = 0;  // blocks done by the vector loop
#if defined(__AVX2__)
  // AVX2 has no 64-bit vector multiply, so GCC leaves the loop below scalar there (measured on
  // a Zen 1 EPYC: 0.74 GB/s for uniform fp64), and on AVX-512 it vectorizes it with vpmullq, a
  // full 64-bit multiply that Intel cores split into three uops (this loop took a Sapphire
  // Rapids VM from 1.86 to 2.86 GB/s), so every AVX2 host takes this loop. vpmuludq multiplies
  // the low 32 bits of each 64-bit lane, which is exactly kM * (x & kLow): the same words,
  // eight blocks at a time (two independent sets of four, for the multiplier's latency).
  // 256-bit lanes on AVX-512 too: GCC 12 rejects its own _mm512_srli_epi64 under -Werror (a
  // false "uninitialized" inside the intrinsic), and the multiplier's throughput per element
  // is the same. Bit-identical to the scalar loop (PhiloxBatchIsRandom123).
  {
    const __m256i m0 = _mm256_set1_epi64x(kM0), m1 = _mm256_set1_epi64x(kM1);
    const __m256i low = _mm256_set1_epi64x(kLow);
    const __m256i vs0 = _mm256_set1_epi64x(static_cast<int64_t>(s0));
    const __m256i vs1 = _mm256_set1_epi64x(static_cast<int64_t>(s1));
    const __m256i step = _mm256_setr_epi64x(0, 1, 2, 3);
    vectored = n / 8 * 8;
    for (int64_t i = 0; i < vectored; i += 8) {
      const __m256i ca = _mm256_add_epi64(
          _mm256_set1_epi64x(static_cast<int64_t>(first + static_cast<uint64_t>(i))), step);
      const __m256i cb = _mm256_add_epi64(ca, _mm256_set1_epi64x(4));
      __m256i a0 = _mm256_and_si256(ca, low), a1 = _mm256_srli_epi64(ca, 32), a2 = vs0, a3 = vs1;
      __m256i b0 = _mm256_and_si256(cb, low), b1 = _mm256_srli_epi64(cb, 32), b2 = vs0, b3 = vs1;
      for (int r = 0; r < 10; ++r) {
        const __m256i k0 = _mm256_set1_epi64x(static_cast<int64_t>(key0[r]));
        const __m256i k1 = _mm256_set1_epi64x(static_cast<int64_t>(key1[r]));
        const __m256i pa0 = _mm256_mul_epu32(a0, m0), pa1 = _mm256_mul_epu32(a2, m1);
        const __m256i pb0 = _mm256_mul_epu32(b0, m0), pb1 = _mm256_mul_epu32(b2, m1);
        a0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa1, 32), a1), k0);
        a2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa0, 32), a3), k1);
        b0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pb1, 32), b1), k0);
        b2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pb0, 32), b3), k1);
        a1 = _mm256_and_si256(pa1, low);
        a3 = _mm256_and_si256(pa0, low);
        b1 = _mm256_and_si256(pb1, low);
        b3 = _mm256_and_si256(pb0, low);
      }
      auto* o01 = reinterpret_cast<__m256i*>(h01 + i);
      auto* o23 = reinterpret_cast<__m256i*>(h23 + i);
      _mm256_storeu_si256(o01, _mm256_or_si256(_mm256_slli_epi64(a0, 32), a1));
      _mm256_storeu_si256(o01 + 1, _mm256_or_si256(_mm256_slli_epi64(b0, 32), b1));
      _mm256_storeu_si256(o23, _mm256_or_si256(_mm256_slli_epi64(a2, 32), a3));
      _mm256_storeu_si256(o23 + 1, _mm256_or_si256(_mm256_slli_epi64(b2, 32), b3));
    }
  }
#endif
  for (int64_t i = vectored; i < n; ++i) {
    const uint64_t c = first + static_cast<uint64_t>(i);
    uint64_t x0 = c & kLow, x1 = c >> 32, x2 = s0, x3 = s1;
#pragma GCC unroll 10
    for (int r = 0; r < 10; ++r) {
      const uint64_t p0 = kM0 * (x0 & kLow);
      const uint64_t p1 = kM1 * (x2 & kLow);
      x0 = (p1 >> 32) ^ x1 ^ key0[r];
      x2 = (p0 >> 32) ^ x3 ^ key1[r];
      x1 = p1 & kLow;
      x3 = p0 & kLow;
    }
    h01[i] = (x0 << 32) | x1;
    h23[i] = (x2 << 32) | x3;
  }
}

namespace {

constexpr double kRound = 0x1.8p52;  // (x + kRound) - kRound rounds x to an integer

// An integer in [-2^51, 2^51) as a double, through the bits of 2^52 + 2^51 + e rather than a
// conversion instruction (AVX2 has none for 64-bit integers). Exact.
inline double int_as_double(int64_t e) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(kRound) + static_cast<uint64_t>(e)) - kRound;
}

// to_unit (common/rng.h) of a 64-bit half: its top 53 bits times 2^-53 (exact). Built from
// bits rather than converted (only AVX-512 converts 64-bit integers in a vector): the top 52
// bits as the significand of a number in [1, 2) minus 1 (exact), plus the 53rd bit's 2^-53
// (exact: every multiple of 2^-53 below 1 is a double).
inline double unit_of(uint64_t bits) {
  const double top52 = std::bit_cast<double>(0x3FF0000000000000u | (bits >> 12)) - 1.0;
  const uint64_t bit53 = (bits >> 11) & 1;
  return top52 + std::bit_cast<double>((uint64_t{0} - bit53) & std::bit_cast<uint64_t>(0x1.0p-53));
}

// x with its significand cut to its leading `bits` bits (sign and exponent kept): exact, and
// x - cut_to(x) is exact too.
template <int bits>
inline double cut_to(double x) {
  constexpr uint64_t kKeep = ~((uint64_t{1} << (53 - bits)) - 1);
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) & kKeep);
}

// c[first] + c[first + 1] x + c[first + 2] x^2 + ... by Horner's rule.
template <int first, int n>
inline double horner(const double (&c)[n], double x) {
  double p = c[n - 1];
#pragma GCC unroll 16
  for (int j = n - 2; j >= first; --j) p = p * x + c[j];
  return p;
}

// The constants and coefficients below are the output of scripts/fit-generator-polys.py (the
// method and the fits are in its docstring and in docs/numerics.md). Each polynomial
// interpolates its function at the Chebyshev nodes of the interval given; the error quoted is
// that of the reconstruction with these rounded doubles in exact arithmetic, relative to the
// true function, before the rounding of the double evaluation.
constexpr double kLn2Hi = 0x1.62e42ff000000p-1;     // ln 2 to 32 significant bits
constexpr double kLn2Lo = -0x1.718432a1b0e26p-35;   // ln 2 - kLn2Hi
constexpr double kTwoPiHi = 0x1.921fb54000000p+2;   // 2 pi to 27 significant bits
constexpr double kTwoPiLo = 0x1.10b4611a62633p-28;  // 2 pi - kTwoPiHi

constexpr double kLn2Over2Hi = 0x1.62e42ff000000p-2;    // ln2/2 to 32 bits
constexpr double kLn2Over2Lo = -0x1.718432a1b0e26p-36;  // ln2/2 - kLn2Over2Hi
constexpr double kTwoOverLn2 = 0x1.71547652b82fep+1;
constexpr double kSqrt2Hi = 0x1.6a09e667f3bcdp+0;
constexpr double kSqrt2Lo = -0x1.bdd3413b26456p-54;  // sqrt(2) - kSqrt2Hi

// exp(r) = 1 + r + r^2 Q(r), |r| <= ln2/4 (1 + 2^-20) = 0.173287
// degree 8; max relative error of the reconstruction with these doubles:
// 2^-60.8 = 4.44e-03 x 2^-53 (scripts/fit-generator-polys.py).
constexpr double kExpQ[] = {0x1.0000000000000p-1,  0x1.555555555553cp-3,  0x1.555555555554dp-5,
                            0x1.111111113dd5dp-7,  0x1.6c16c16c34997p-10, 0x1.a019fc625e380p-13,
                            0x1.a019fe21a93bbp-16, 0x1.7218670b9d0a4p-19, 0x1.280bc3882829dp-22};

// log(1 + f) = 2 s + 2 s^3 P(s^2), s = f / (2 + f), s^2 <= 0.029437 ((3 - 2 sqrt 2)^2, widened)
// degree 7; max relative error of the reconstruction with these doubles:
// 2^-60.7 = 4.78e-03 x 2^-53 (scripts/fit-generator-polys.py).
constexpr double kLogP[] = {0x1.5555555555555p-2, 0x1.9999999999a38p-3, 0x1.2492492476ccbp-3,
                            0x1.c71c7201592a1p-4, 0x1.745cf9048617ap-4, 0x1.3b1c355c3560fp-4,
                            0x1.0fbe95aaf31a8p-4, 0x1.0c039e172b8dfp-4};

// sin(2 pi t) = t (2 pi + w G(w)), w = t^2 <= 1/64; G's constant term as hi + lo
// degree 6; max relative error of the reconstruction with these doubles:
// 2^-61.7 = 2.44e-03 x 2^-53 (scripts/fit-generator-polys.py).
constexpr double kSinG[] = {-0x1.4abbce625be53p+5, 0x1.05bb2b825dbb0p-49, 0x1.466bc6775aae1p+6,
                            -0x1.32d2cce62b872p+6, 0x1.50783486facaap+5,  -0x1.e3074d2614b2dp+3,
                            0x1.e8f036bcd3237p+1,  -0x1.6cc577dadd922p-1};

// cos(2 pi t) = 1 - w K(w), w = t^2 <= 1/64; K's constant term as hi (27 bits) + lo
// degree 6; max relative error of the reconstruction with these doubles:
// 2^-59.2 = 1.35e-02 x 2^-53 (scripts/fit-generator-polys.py).
constexpr double kCosK[] = {0x1.3bd3cc8000000p+4,  0x1.be45de59bb7d2p-24, -0x1.03c1f081b5ac0p+6,
                            0x1.55d3c7e3cb241p+6,  -0x1.e1f5068688d5bp+5, 0x1.a6d1eef479be1p+4,
                            -0x1.f9ce245cada0bp+2, 0x1.b2f3eb054afcdp+0};

}  // namespace

void log_batch(const double* __restrict x, double* __restrict y, int64_t n) {
  // x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)): x's bits minus those of sqrt(1/2) carry
  // e in the exponent field (an arithmetic shift gets it, for every normal x), and x's bits
  // minus e in that field are 1 + f; f = (1 + f) - 1 is exact. Then log(1 + f) = 2 atanh(s),
  // s = f / (2 + f) in [-0.172, 0.172], an odd series in s (kLogP). No branches: zero,
  // negative, subnormal, infinite and NaN inputs are not handled (the generator has none).
  constexpr uint64_t kSqrtHalf = std::bit_cast<uint64_t>(0.5 * std::numbers::sqrt2);
  constexpr double kRound26 = 0x1.8p26;  // (f + kRound26) - kRound26: f to a multiple of 2^-26
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t bits = std::bit_cast<uint64_t>(x[i]);
    // The arithmetic shift as a logical one of the sign-flipped bits (AVX2 has no 64-bit
    // arithmetic shift): the same e.
    const int64_t e =
        static_cast<int64_t>(((bits - kSqrtHalf) ^ (uint64_t{1} << 63)) >> 52) - (int64_t{1} << 11);
    const double f = std::bit_cast<double>(bits - (static_cast<uint64_t>(e) << 52)) - 1.0;
    // s as s_hi + s_lo to about 2^-76 relative: s_hi is the rounded quotient cut to 25 bits,
    // 2 + f = d_hi + f_lo with d_hi = 2 + f_hi of 28 bits, so s_hi d_hi is exact and, being
    // within 2^-24 of f, so is f - s_hi d_hi; the remainder over 2 + f is s_lo.
    const double inv = 1.0 / (2.0 + f);
    const double s_hi = cut_to<25>(f * inv);
    const double f_hi = (f + kRound26) - kRound26;
    const double f_lo = f - f_hi;
    const double rem = (f - s_hi * (2.0 + f_hi)) - s_hi * f_lo;
    const double s_lo = rem * inv;
    const double s = s_hi + s_lo;
    const double z = s * s;
    // e ln2 + 2 s_hi + (2 s_lo + 2 s^3 P(z)): the two large terms as an exact sum big + err
    // (|e kLn2Hi| >= ln2 > |2 s_hi| unless e = 0; e kLn2Hi is exact), so only the last
    // addition rounds at the result's scale.
    const double dk = int_as_double(e);
    const double a = dk * kLn2Hi;
    const double b = 2.0 * s_hi;
    const double big = a + b;
    const double err = b - (big - a);
    const double tail = 2.0 * s_lo + 2.0 * (s * z) * horner<0>(kLogP, z);
    y[i] = big + (err + (dk * kLn2Lo + tail));
  }
}

void exp_batch(const double* __restrict x, double* __restrict y, int64_t n) {
  // x = k ln2/2 + r with k = round(2x / ln2) = 2m + j, |r| <= ln2/4: r_hi = x - k kLn2Over2Hi
  // is exact (k has at most 12 bits, kLn2Over2Hi 32, and |r_hi| is below 2^53 ulps of x), r =
  // r_hi - k kLn2Over2Lo. exp(x) = 2^m sqrt(2)^j exp(r) with exp(r) - 1 = p =
  // r + r^2 Q(r) (kExpQ) and sqrt(2) = kSqrt2Hi + kSqrt2Lo: the only rounding at the result's
  // scale is the last addition, (1 or kSqrt2Hi) + (small). 2^m is built in the exponent field,
  // exact while 2^m and the result are normal: |x| <= 708.
  for (int64_t i = 0; i < n; ++i) {
    const double t = x[i] * kTwoOverLn2 + kRound;
    const double kd = t - kRound;
    const int64_t k =
        static_cast<int64_t>(std::bit_cast<uint64_t>(t) - std::bit_cast<uint64_t>(kRound));
    // T = sqrt(2) for odd k, else 1, chosen with bit masks: GCC 12 does not if-convert a
    // select here and then leaves the loop scalar.
    const uint64_t odd = uint64_t{0} - (static_cast<uint64_t>(k) & 1);
    const double r_hi = x[i] - kd * kLn2Over2Hi;
    const double r_lo = kd * kLn2Over2Lo;
    const double r = r_hi - r_lo;
    const double p = r_hi + ((r * r) * horner<0>(kExpQ, r) - r_lo);
    constexpr uint64_t kOne = std::bit_cast<uint64_t>(1.0);
    const double hi =
        std::bit_cast<double>(kOne ^ (odd & (kOne ^ std::bit_cast<uint64_t>(kSqrt2Hi))));
    const double lo = std::bit_cast<double>(odd & std::bit_cast<uint64_t>(kSqrt2Lo));
    // Only the low 11 bits of m + 1023 reach the exponent field, and a logical shift of k
    // gives m's low bits as the arithmetic one does (AVX2 has no 64-bit arithmetic shift).
    const double scale = std::bit_cast<double>(((static_cast<uint64_t>(k) >> 1) + 1023) << 52);
    y[i] = (hi + (lo + hi * p)) * scale;
  }
}

namespace {

// cos(2 pi u), sin(2 pi u) from those of t = u - q/4 for q mod 4 = 0, 1, 2, 3: (cos_t, sin_t),
// (-sin_t, cos_t), (-cos_t, -sin_t), (sin_t, -cos_t), with bit masks (no select, so the loops
// vectorize). U is the unsigned integer of F's width, holding q in its low bits.
template <typename F, typename U>
inline void by_quadrant(F cos_t, F sin_t, U q, F& c, F& s) {
  constexpr int kSignShift = 8 * sizeof(U) - 2;  // bit 1 of q onto the sign bit
  const U swap = U{0} - (q & 1);
  const U cb = std::bit_cast<U>(cos_t), sb = std::bit_cast<U>(sin_t);
  const U first = (cb & ~swap) | (sb & swap), second = (sb & ~swap) | (cb & swap);
  c = std::bit_cast<F>(static_cast<U>(first ^ (((q + 1) & 2) << kSignShift)));
  s = std::bit_cast<F>(static_cast<U>(second ^ ((q & 2) << kSignShift)));
}

}  // namespace

void sincos_2pi_batch(const double* __restrict u, double* __restrict c, double* __restrict s,
                      int64_t n) {
  // Quadrants in turns: q = round(4u) and t = u - q/4 in [-1/8, 1/8], exact for u in [0, 1)
  // (u is a multiple of 2^-53, so is t, and |t| <= 1/8 needs at most 50 bits). Then
  // sin(2 pi t) = t (2 pi + w G(w)) and cos(2 pi t) = 1 - w K(w), w = t^2 (kSinG, kCosK, whose
  // constant terms are kept as hi + lo), with t = t13 + t_lo, t13 cut to 13 bits so that the
  // leading terms t13 kTwoPiHi and t13^2 kCosK[0] are exact products (13 + 27 and 26 + 27
  // bits); the quadrant then swaps the two and sets their signs.
  for (int64_t i = 0; i < n; ++i) {
    const double r4 = 4.0 * u[i] + kRound;
    const uint64_t q = std::bit_cast<uint64_t>(r4);  // its low bits are round(4u)
    const double t = u[i] - 0.25 * (r4 - kRound);
    const double t13 = cut_to<13>(t);
    const double t_lo = t - t13;
    const double w = t * t;
    const double g = kSinG[0] + (kSinG[1] + w * horner<2>(kSinG, w));
    const double sin_t = t13 * kTwoPiHi + (t_lo * kTwoPiHi + t * (kTwoPiLo + w * g));
    // 1 - w K(w) with w = t13^2 + w_lo: 1 - t13^2 kCosK[0] as an exact sum big + err, then
    // the small rest.
    const double w_lo = t_lo * (t + t13);
    const double h_hi = (t13 * t13) * kCosK[0];
    const double h_rest = w_lo * kCosK[0] + w * (kCosK[1] + w * horner<2>(kCosK, w));
    const double big = 1.0 - h_hi;
    const double err = (1.0 - big) - h_hi;
    const double cos_t = big + (err - h_rest);
    by_quadrant(cos_t, sin_t, q, c[i], s[i]);
  }
}

// The fp32 draw's transforms (docs/numerics.md, "fp32"): plain IEEE float arithmetic, so 16
// lanes per AVX-512 vector and 8 per AVX2 one. Truncated Taylor series on small intervals are
// enough for a float result: each series' first omitted term is below 2^-27 relative, so the
// error is the roundings' (a few float ulps; tests hold each to 4 ulps of the double libm
// value).
namespace {

constexpr float kRoundF = 0x1.8p23f;        // (x + kRoundF) - kRoundF rounds to an integer
constexpr float kLn2HiF = 0x1.62e400p-1f;   // ln 2 to 17 bits: k kLn2HiF exact for |k| < 128
constexpr float kLn2LoF = 0x1.7f7d1cp-20f;  // ln 2 - kLn2HiF
constexpr float kInvLn2F = 0x1.715476p+0f;
constexpr float kTwoPiF = 0x1.921fb6p+2f;

}  // namespace

void log_batch(const float* __restrict x, float* __restrict y, int64_t n) {
  // x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)) (the bits minus those of sqrt(1/2), shifted
  // arithmetically, give e); log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| <= 0.1716: the
  // series 2 s (1 + z/3 + z^2/5 + z^3/7 + z^4/9), z = s^2 (omitted: z^5/11 < 2^-28).
  constexpr int32_t kSqrtHalf = std::bit_cast<int32_t>(0x1.6a09e6p-1f);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t bits = std::bit_cast<int32_t>(x[i]);
    const int32_t e = (bits - kSqrtHalf) >> 23;
    const float f = std::bit_cast<float>(bits - e * (int32_t{1} << 23)) - 1.0f;
    const float s = f / (2.0f + f);
    const float z = s * s;
    const float p = z * (1.0f / 3 + z * (1.0f / 5 + z * (1.0f / 7 + z * (1.0f / 9))));
    const float ek = static_cast<float>(e);
    y[i] = ek * kLn2HiF + (ek * kLn2LoF + (2.0f * s + 2.0f * s * p));
  }
}

void exp_batch(const float* __restrict x, float* __restrict y, int64_t n) {
  // x = k ln2 + r, k = round(x / ln2), |r| <= ln2/2 (k kLn2HiF exact); exp(r) =
  // 1 + r + r^2 (1/2 + r/6 + ... + r^5/5040) (omitted: r^8/8! < 2^-27), times 2^k built in
  // the exponent field: |x| <= 87.
  for (int64_t i = 0; i < n; ++i) {
    const float t = x[i] * kInvLn2F + kRoundF;
    const float kd = t - kRoundF;
    const int32_t k = std::bit_cast<int32_t>(t) - std::bit_cast<int32_t>(kRoundF);
    const float r = (x[i] - kd * kLn2HiF) - kd * kLn2LoF;
    const float q =
        0.5f +
        r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720 + r * (1.0f / 5040)))));
    const float scale = std::bit_cast<float>((k + 127) << 23);
    y[i] = (1.0f + (r + r * r * q)) * scale;
  }
}

void sincos_2pi_batch(const float* __restrict u, float* __restrict c, float* __restrict s,
                      int64_t n) {
  // As the double version: q = round(4u), t = u - q/4 in [-1/8, 1/8] exact for these u
  // (multiples of 2^-24), x = 2 pi t (one rounding), |x| <= pi/4; sin x = x (1 - w/3! + ... +
  // w^4/9!) and cos x = 1 - w/2 + ... + w^5/10!, w = x^2 (omitted: below 2^-28); the quadrant
  // swaps the two and sets their signs.
  for (int64_t i = 0; i < n; ++i) {
    const float r4 = 4.0f * u[i] + kRoundF;
    const uint32_t q = std::bit_cast<uint32_t>(r4);  // its low bits are round(4u)
    const float t = u[i] - 0.25f * (r4 - kRoundF);
    const float x = t * kTwoPiF;
    const float w = x * x;
    const float sin_t =
        x + x * (w * (-1.0f / 6 + w * (1.0f / 120 + w * (-1.0f / 5040 + w * (1.0f / 362880)))));
    const float cos_t =
        1.0f + w * (-0.5f + w * (1.0f / 24 +
                                 w * (-1.0f / 720 + w * (1.0f / 40320 + w * (-1.0f / 3628800)))));
    by_quadrant(cos_t, sin_t, q, c[i], s[i]);
  }
}

}  // namespace generator

namespace {

// Elements 2k and 2k+1 share Philox block k: uniform values take one 64-bit half each, and
// Box-Muller turns the block's two uniforms into a cosine and a sine normal. Either way an
// element depends only on (seed, stream, its index). Work goes in chunks of kChunk elements
// (structure of arrays: Philox words, then uniforms, then each transform in its own loop).
constexpr int64_t kChunk = 256;
constexpr int64_t kChunkBlocks = kChunk / 2;

struct alignas(64) ChunkScratch {
  uint64_t h01[kChunkBlocks], h23[kChunkBlocks];
  double u1[kChunkBlocks], u2[kChunkBlocks], log_u1[kChunkBlocks];
  double c[kChunkBlocks], s[kChunkBlocks], normal[kChunk];
};

// fp32 chunks take a quarter as many Philox blocks (four 32-bit words each, one element per
// word): element pair j of a chunk (its elements 2j and 2j + 1) takes words (w0, w1) of the
// chunk's block j for j < kChunk / 4, else (w2, w3) of block j - kChunk / 4.
constexpr int64_t kChunkBlocksF = kChunk / 4;
constexpr int64_t kChunkPairs = kChunk / 2;

struct alignas(64) ChunkScratchF {
  uint64_t h01[kChunkBlocksF], h23[kChunkBlocksF];
  float ua[kChunkPairs], ub[kChunkPairs], log_ua[kChunkPairs];
  float c[kChunkPairs], s[kChunkPairs], normal[kChunk];
};

// The kChunk raw values of chunk `chunk` (elements kChunk*chunk ..), interleaved as stored.
void raw_chunk(uint64_t seed, uint64_t stream, int64_t chunk, Distribution dist, ChunkScratch& t,
               double* __restrict out) {
  generator::philox_batch(seed, stream, static_cast<uint64_t>(chunk * kChunkBlocks), kChunkBlocks,
                          t.h01, t.h23);
  if (dist == Distribution::kUniform) {
    for (int64_t k = 0; k < kChunkBlocks; ++k) {
      out[2 * k] = -1000.0 + 2000.0 * generator::unit_of(t.h01[k]);
      out[2 * k + 1] = -1000.0 + 2000.0 * generator::unit_of(t.h23[k]);
    }
    return;
  }
  for (int64_t k = 0; k < kChunkBlocks; ++k) {
    t.u1[k] = 1.0 - generator::unit_of(t.h01[k]);  // to_unit_open0: (0, 1], safe for log
    t.u2[k] = generator::unit_of(t.h23[k]);
  }
  generator::log_batch(t.u1, t.log_u1, kChunkBlocks);
  generator::sincos_2pi_batch(t.u2, t.c, t.s, kChunkBlocks);
  double* __restrict normal = dist == Distribution::kLognormal ? t.normal : out;
  for (int64_t k = 0; k < kChunkBlocks; ++k) {
    const double radius = std::sqrt(-2.0 * t.log_u1[k]);
    normal[2 * k] = radius * t.c[k];
    normal[2 * k + 1] = radius * t.s[k];
  }
  if (dist == Distribution::kLognormal) generator::exp_batch(t.normal, out, kChunk);
}

// A 32-bit word's top 24 bits times 2^-24: a float in [0, 1), exact (the integer converts
// exactly, the product is a power-of-two scaling).
inline float unit24(uint64_t top24) {
  return static_cast<float>(static_cast<int32_t>(top24)) * 0x1p-24f;
}

// The fp32 draw: as raw_chunk, with float transforms (generator:: float overloads) of one
// 24-bit uniform per 32-bit word. Normal: Box-Muller of the pair's (1 - u(first word),
// u(second word)), cosine then sine.
void raw_chunk_f32(uint64_t seed, uint64_t stream, int64_t chunk, Distribution dist,
                   ChunkScratchF& t, float* __restrict out) {
  generator::philox_batch(seed, stream, static_cast<uint64_t>(chunk * kChunkBlocksF), kChunkBlocksF,
                          t.h01, t.h23);
  for (int64_t k = 0; k < kChunkBlocksF; ++k) {
    t.ua[k] = unit24(t.h01[k] >> 40);
    t.ub[k] = unit24((t.h01[k] >> 8) & 0xffffff);
    t.ua[kChunkBlocksF + k] = unit24(t.h23[k] >> 40);
    t.ub[kChunkBlocksF + k] = unit24((t.h23[k] >> 8) & 0xffffff);
  }
  if (dist == Distribution::kUniform) {
    for (int64_t j = 0; j < kChunkPairs; ++j) {
      out[2 * j] = -1000.0f + 2000.0f * t.ua[j];
      out[2 * j + 1] = -1000.0f + 2000.0f * t.ub[j];
    }
    return;
  }
  for (int64_t j = 0; j < kChunkPairs; ++j) t.ua[j] = 1.0f - t.ua[j];  // (0, 1]: safe for log
  generator::log_batch(t.ua, t.log_ua, kChunkPairs);
  generator::sincos_2pi_batch(t.ub, t.c, t.s, kChunkPairs);
  float* __restrict normal = dist == Distribution::kLognormal ? t.normal : out;
  for (int64_t j = 0; j < kChunkPairs; ++j) {
    const float radius = std::sqrt(-2.0f * t.log_ua[j]);
    normal[2 * j] = radius * t.c[j];
    normal[2 * j + 1] = radius * t.s[j];
  }
  if (dist == Distribution::kLognormal) generator::exp_batch(t.normal, out, kChunk);
}

int thread_count(const DrawSpec& spec) {
  return spec.threads > 0 ? spec.threads : omp_get_max_threads();
}

constexpr int64_t kParallelThreshold = 1 << 14;

// Scales, folds (fold_into, one loop per domain kind so the common kinds vectorize) and stores.
// Raw values R (double, or float for the fp32 draw) are scaled in double.
template <typename T, typename R>
void store_folded(T* __restrict p, const R* __restrict v, int64_t m, const Domain& dom,
                  double scale) {
  switch (dom.kind) {
    case Domain::Kind::kAny:
      for (int64_t i = 0; i < m; ++i) p[i] = static_cast<T>(scale * static_cast<double>(v[i]));
      return;
    case Domain::Kind::kPositive:
      for (int64_t i = 0; i < m; ++i) {
        const double a = std::fabs(scale * static_cast<double>(v[i]));
        T x = static_cast<T>(a < DBL_MIN ? DBL_MIN : a);
        // A positive double below FLT_MIN would round to zero (or a denormal) in float.
        if constexpr (sizeof(T) == 4) x = x >= FLT_MIN ? x : FLT_MIN;
        p[i] = x;
      }
      return;
    case Domain::Kind::kNonneg:
      for (int64_t i = 0; i < m; ++i) {
        p[i] = static_cast<T>(std::fabs(scale * static_cast<double>(v[i])));
      }
      return;
    case Domain::Kind::kInterval:
      for (int64_t i = 0; i < m; ++i) {
        p[i] = static_cast<T>(fold_into(dom, scale * static_cast<double>(v[i])));
      }
      return;
  }
}

template <typename T>
void fill_real_typed(T* p, int64_t n, const Domain& dom, uint64_t seed, uint64_t stream,
                     Distribution dist, double scale, int threads) {
  const int64_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > kParallelThreshold)
  for (int64_t c = 0; c < chunks; ++c) {
    if constexpr (std::is_same_v<T, float>) {
      ChunkScratchF scratch;
      alignas(64) float v[kChunk];
      raw_chunk_f32(seed, stream, c, dist, scratch, v);
      store_folded(p + c * kChunk, v, std::min(kChunk, n - c * kChunk), dom, scale);
    } else {
      ChunkScratch scratch;
      alignas(64) double v[kChunk];
      raw_chunk(seed, stream, c, dist, scratch, v);
      store_folded(p + c * kChunk, v, std::min(kChunk, n - c * kChunk), dom, scale);
    }
  }
}

template <typename T>
void fill_ints_typed(T* p, int64_t n, int64_t lo, uint64_t span, uint64_t seed, uint64_t stream,
                     int threads) {
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  // As for reals, elements 2k and 2k+1 take the two 64-bit halves of Philox block k.
#pragma omp parallel for num_threads(threads) schedule(static) if (n > kParallelThreshold)
  for (int64_t c = 0; c < chunks; ++c) {
    uint64_t h[2][kChunkBlocks];
    generator::philox_batch(seed, stream, static_cast<uint64_t>(c * kChunkBlocks), kChunkBlocks,
                            h[0], h[1]);
    const int64_t m = std::min(kChunk, n - c * kChunk);
    T* q = p + c * kChunk;
    for (int64_t i = 0; i < m; ++i) {
      const uint64_t bits = h[i % 2][i / 2];
      q[i] = static_cast<T>(lo + static_cast<int64_t>(span == 0 ? bits : bits % span));
    }
  }
}

std::pair<int64_t, int64_t> dtype_limits(DType t) {
  switch (t) {
    case DType::kInt64:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    case DType::kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::kUint16:
      return {0, 65535};
    case DType::kUint8:
      return {0, 255};
    case DType::kInt8:
      return {-128, 127};
    case DType::kBool:
      return {0, 1};
    default:
      return {0, 0};
  }
}

}  // namespace

namespace fill {

void fill_real(NdArray& a, const Domain& dom, uint64_t seed, uint64_t stream, Distribution dist,
               double scale, int threads) {
  if (a.dtype() == DType::kFloat64) {
    fill_real_typed(a.as<double>(), a.size(), dom, seed, stream, dist, scale, threads);
  } else {
    fill_real_typed(a.as<float>(), a.size(), dom, seed, stream, dist, scale, threads);
  }
}

Status fill_ints(NdArray& a, const ArraySpec& spec, const SymbolTable& syms, uint64_t seed,
                 uint64_t stream, int threads) {
  int64_t lo = 0, hi = 100;
  if (a.dtype() == DType::kBool) {
    hi = 1;
  } else if (spec.range_lo) {
    auto l = spec.range_lo->eval(syms);
    if (!l) return l.error();
    auto h = spec.range_hi->eval(syms);
    if (!h) return h.error();
    lo = *l;
    hi = *h;
  }
  auto [tmin, tmax] = dtype_limits(a.dtype());
  if (lo > hi || lo < tmin || hi > tmax) {
    return Error{"array '" + spec.name + "': range [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "] is empty or does not fit " +
                 std::string(dtype_name(a.dtype()))};
  }
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0: full range
  const int64_t n = a.size();
  switch (a.dtype()) {
    case DType::kInt64:
      fill_ints_typed(a.as<int64_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kInt32:
      fill_ints_typed(a.as<int32_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kUint16:
      fill_ints_typed(a.as<uint16_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kUint8:
    case DType::kBool:
      fill_ints_typed(a.as<uint8_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kInt8:
      fill_ints_typed(a.as<int8_t>(), n, lo, span, seed, stream, threads);
      break;
    default:
      return Error{"array '" + spec.name + "': not an integer type"};
  }
  return Ok{};
}

uint64_t below(uint64_t seed, uint64_t stream, uint64_t counter, uint64_t bound) {
  auto r = philox(seed, stream, counter);
  uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
  return bits % bound;
}

void set_index(NdArray& a, int64_t i, int64_t v) {
  if (a.dtype() == DType::kInt64) {
    a.as<int64_t>()[i] = v;
  } else {
    a.as<int32_t>()[i] = static_cast<int32_t>(v);
  }
}

}  // namespace fill

namespace {

// Arrays at least this large are poisoned with non-temporal stores: an ordinary store first
// reads each line it writes (read for ownership), which doubles the memory traffic of a fill
// whose data nobody reads before the kernel overwrites it, and an array this large would push
// the kernel's inputs out of the private caches anyway. Smaller ones keep ordinary stores, so
// what the caches hold before a call is what it always was there.
constexpr std::size_t kStreamingPoisonBytes = std::size_t{8} << 20;

}  // namespace

void fill_poison(void* p, std::size_t nbytes, uint64_t pattern) {
  auto* bytes = static_cast<unsigned char*>(p);
  std::size_t done = 0;
#if defined(__SSE2__)
  if (nbytes >= kStreamingPoisonBytes && reinterpret_cast<uintptr_t>(p) % 64 == 0) {
    const __m128i v = _mm_set1_epi64x(static_cast<int64_t>(pattern));
    done = nbytes / 64 * 64;
    for (std::size_t i = 0; i < done; i += 64) {
      auto* line = reinterpret_cast<__m128i*>(bytes + i);
      _mm_stream_si128(line, v);
      _mm_stream_si128(line + 1, v);
      _mm_stream_si128(line + 2, v);
      _mm_stream_si128(line + 3, v);
    }
    // Non-temporal stores are weakly ordered: fence them before anything else sees the array.
    _mm_sfence();
  }
#endif
  // The rest (all of a small array) in ordinary stores; `done` is a multiple of 8 here, so the
  // pattern's phase is the byte offset's.
  for (; done + 8 <= nbytes; done += 8) std::memcpy(bytes + done, &pattern, 8);
  for (; done < nbytes; ++done)
    bytes[done] = static_cast<unsigned char>(pattern >> (8 * (done % 8)));
}

void poison_outputs(const Manifest& m, Draw& draw) {
  constexpr uint64_t kNan64 = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
  constexpr uint64_t kNan32 = std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN());
  for (const auto& spec : m.arrays) {
    auto it = draw.arrays.find(spec.name);
    if (spec.intent != Intent::kOut || it == draw.arrays.end()) continue;
    NdArray& a = it->second;
    if (a.dtype() == DType::kFloat64) {
      fill_poison(a.data(), a.nbytes(), kNan64);
    } else if (a.dtype() == DType::kFloat32) {
      fill_poison(a.data(), a.nbytes(), kNan32 | (kNan32 << 32));
    } else {
      fill_poison(a.data(), a.nbytes(), 0xA5A5A5A5A5A5A5A5u);
    }
  }
}

namespace {

Status check_spec(const Manifest& m, const DrawSpec& spec) {
  if (!m.supports(spec.precision)) {
    return Error{"kernel '" + m.id + "' does not support precision " +
                 std::string(precision_name(spec.precision))};
  }
  for (const auto& sym : m.size_symbols) {
    auto it = spec.sizes.find(sym);
    if (it == spec.sizes.end() || it->second < 1) {
      return Error{"kernel '" + m.id + "': size symbol '" + sym + "' missing or not positive"};
    }
  }
  // A kernel may rely on its constraints (stockham_fft's N == pow(R, K)): sizes that break one
  // would make even the reference misbehave.
  if (auto broken = violated_constraint(m, spec.sizes)) {
    return Error{"kernel '" + m.id + "': the sizes break its constraint '" + *broken + "'"};
  }
  return Ok{};
}

}  // namespace

Result<std::vector<int64_t>> shape_of(const ArraySpec& a, const SymbolTable& symbols) {
  std::vector<int64_t> shape;
  for (const auto& e : a.shape) {
    auto v = e.eval(symbols);
    if (!v) return Error{"array '" + a.name + "': " + v.error().message};
    if (*v < 0) return Error{"array '" + a.name + "': negative extent " + e.text()};
    shape.push_back(*v);
  }
  return shape;
}

Result<Draw> generate_draw(const Manifest& m, const DrawSpec& spec) {
  auto d = allocate_draw(m, spec);
  if (!d) return d.error();
  if (auto st = regenerate_draw(m, spec, *d); !st) return st.error();
  return d;
}

Result<Draw> allocate_draw(const Manifest& m, const DrawSpec& spec) {
  if (auto st = check_spec(m, spec); !st) return st.error();
  Draw d;
  d.precision = spec.precision;
  d.symbols = m.symbols(spec.sizes);
  for (const auto& a : m.arrays) {
    auto shape = shape_of(a, d.symbols);
    if (!shape) return shape.error();
    d.arrays.emplace(a.name, NdArray(a.dtype(spec.precision), std::move(*shape)));
  }
  return d;
}

Result<SharedDrawLayout> shared_draw_layout(const Manifest& m, Precision p,
                                            const SymbolTable& sizes) {
  constexpr uint64_t kPage = 4096;
  const SymbolTable symbols = m.symbols(sizes);
  SharedDrawLayout layout;
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut) continue;
    auto shape = shape_of(a, symbols);
    if (!shape) return shape.error();
    SharedDrawLayout::Entry e{a.name, layout.total_bytes, a.dtype(p), std::move(*shape), 0};
    e.bytes = dtype_size(e.dtype);
    for (int64_t n : e.shape) e.bytes *= static_cast<uint64_t>(n);
    layout.total_bytes += (e.bytes + kPage - 1) / kPage * kPage;
    layout.entries.push_back(std::move(e));
  }
  if (layout.total_bytes == 0) layout.total_bytes = kPage;
  return layout;
}

Draw shared_draw_view(const Manifest& m, Precision p, const SymbolTable& sizes,
                      const SharedDrawLayout& layout, void* base) {
  Draw d;
  d.precision = p;
  d.symbols = m.symbols(sizes);
  for (const auto& e : layout.entries) {
    d.arrays.emplace(e.name,
                     NdArray::view(e.dtype, e.shape, static_cast<unsigned char*>(base) + e.offset));
  }
  return d;
}

Status regenerate_draw(const Manifest& m, const DrawSpec& spec, Draw& d) {
  if (auto st = check_spec(m, spec); !st) return st;
  const SymbolTable symbols = m.symbols(spec.sizes);
  for (const auto& a : m.arrays) {
    auto shape = shape_of(a, symbols);
    if (!shape) return shape.error();
    auto it = d.arrays.find(a.name);
    if (it == d.arrays.end() && a.intent == Intent::kOut) continue;
    if (it == d.arrays.end() || it->second.shape() != *shape ||
        it->second.dtype() != a.dtype(spec.precision)) {
      return Error{"regenerate_draw: array '" + a.name + "' does not have the draw's shape"};
    }
  }
  d.precision = spec.precision;
  d.symbols = symbols;
  d.distribution = spec.distribution.value_or(distribution_for_seed(spec.seed));
  const int threads = thread_count(spec);
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut || m.initializer_for(a.name) != nullptr) continue;
    NdArray& arr = d.arrays.at(a.name);
    if (dtype_is_float(arr.dtype())) {
      fill::fill_real(arr, a.domain, spec.seed, stream_id(a.name), d.distribution, spec.scale,
                      threads);
    } else if (auto st = fill::fill_ints(arr, a, d.symbols, spec.seed, stream_id(a.name), threads);
               !st) {
      return st;
    }
  }
  for (const auto& init : m.initializers) {
    if (auto st = apply_initializer(d, m, init, spec.seed, d.distribution, spec.scale, threads);
        !st) {
      return st;
    }
  }
  poison_outputs(m, d);
  return Ok{};
}

}  // namespace hpcab
