// Fast softmax submission (OpenMP rows, vectorized max/exp/sum/scale) for demos and e2e tests.
#include <stdint.h>
#include <string.h>

/*
 * Row-wise softmax with the row maximum subtracted (so exp never overflows). Rows are spread
 * over threads; inside a row the max, the exponentials with their sum, and the scaling are three
 * SIMD loops. Without -ffast-math GCC neither vectorizes libm's exp nor reassociates the sum,
 * so exp is an inline branch-free implementation (Cody-Waite range reduction by ln 2 and a
 * polynomial, the 2^n scale built from the exponent bits; within a few ulp, far inside the
 * comparator's bands), and the sum is an explicit `omp simd` reduction (a reassociation the
 * comparator's reduction floor allows).
 */

/* exp(x) for x <= 0 (x - max); below the smallest normal result it returns 0. */
static inline double exp_neg_fp64(double x) {
  const double log2e = 0x1.71547652b82fep0;
  const double ln2_hi = 0x1.62e42fefa39efp-1;
  const double ln2_lo = 0x1.abc9e3b39803fp-56;
  const double shift = 0x1.8p52;
  const int underflow = x < -708.0;
  x = underflow ? -708.0 : x;
  double kd = x * log2e + shift;
  uint64_t ki;
  memcpy(&ki, &kd, sizeof ki);
  kd -= shift; /* n = round(x / ln 2) */
  double r = x - kd * ln2_hi;
  r = r - kd * ln2_lo; /* |r| <= ln2/2 */
  /* Taylor polynomial of degree 13 for exp(r), |r| <= 0.347 (truncation error < 1e-17), in
   * Estrin's scheme: a short dependency chain, so vector iterations overlap well. */
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double q01 = 1.0 + r, q23 = 1.0 / 2 + r * (1.0 / 6), q45 = 1.0 / 24 + r * (1.0 / 120);
  const double q67 = 1.0 / 720 + r * (1.0 / 5040), q89 = 1.0 / 40320 + r * (1.0 / 362880);
  const double qab = 1.0 / 3628800 + r * (1.0 / 39916800);
  const double qcd = 1.0 / 479001600 + r * (1.0 / 6227020800.0);
  const double s0 = q01 + r2 * q23, s1 = q45 + r2 * q67, s2 = q89 + r2 * qab;
  const double p = (s0 + r4 * s1) + r8 * (s2 + r4 * qcd);
  const uint64_t sbits = (ki + 1023u) << 52; /* 2^n, n in [-1022, 0] */
  double s;
  memcpy(&s, &sbits, sizeof s);
  const double y = p * s;
  return underflow ? 0.0 : y;
}

static inline float exp_neg_fp32(float x) {
  const float log2e = 0x1.715476p0f;
  const float ln2_hi = 0x1.62e4p-1f;
  const float ln2_lo = 0x1.7f7d1cp-20f;
  const float shift = 0x1.8p23f;
  const int underflow = x < -87.0f;
  x = underflow ? -87.0f : x;
  float kd = x * log2e + shift;
  uint32_t ki;
  memcpy(&ki, &kd, sizeof ki);
  kd -= shift;
  float r = x - kd * ln2_hi;
  r = r - kd * ln2_lo;
  /* Degree 7 (truncation error < 1e-8), Estrin's scheme. */
  const float r2 = r * r, r4 = r2 * r2;
  const float q01 = 1.0f + r, q23 = 1.0f / 2 + r * (1.0f / 6);
  const float q45 = 1.0f / 24 + r * (1.0f / 120), q67 = 1.0f / 720 + r * (1.0f / 5040);
  const float p = (q01 + r2 * q23) + r4 * (q45 + r2 * q67);
  const uint32_t sbits = (ki + 127u) << 23; /* 2^n, n in [-126, 0] */
  float s;
  memcpy(&s, &sbits, sizeof s);
  const float y = p * s;
  return underflow ? 0.0f : y;
}

/* Rows go to threads (when there is enough work); three SIMD loops per row. */
/* clang-format off */
#define DEFINE_SOFTMAX(T, SUF)                                                                     \
  void softmax_##SUF(T *restrict out, const T *restrict x, const int64_t D, const int64_t N,       \
                     uint8_t *restrict workspace, const int64_t workspace_size) {                  \
    (void)workspace;                                                                               \
    (void)workspace_size;                                                                          \
    _Pragma("omp parallel for schedule(static) if (N * D >= 16384)")                               \
    for (int64_t i = 0; i < N; i++) {                                                              \
      const T *restrict xi = x + i * D;                                                            \
      T *restrict oi = out + i * D;                                                                \
      T m = xi[0];                                                                                 \
      _Pragma("omp simd reduction(max : m)")                                                       \
      for (int64_t j = 1; j < D; j++) m = xi[j] > m ? xi[j] : m;                                   \
      T sum = 0;                                                                                   \
      _Pragma("omp simd reduction(+ : sum)")                                                       \
      for (int64_t j = 0; j < D; j++) {                                                            \
        const T e = exp_neg_##SUF(xi[j] - m);                                                      \
        oi[j] = e;                                                                                 \
        sum += e;                                                                                  \
      }                                                                                            \
      const T inv = (T)1 / sum;                                                                    \
      _Pragma("omp simd")                                                                          \
      for (int64_t j = 0; j < D; j++) oi[j] *= inv;                                                \
    }                                                                                              \
  }
/* clang-format on */

DEFINE_SOFTMAX(double, fp64)
DEFINE_SOFTMAX(float, fp32)
