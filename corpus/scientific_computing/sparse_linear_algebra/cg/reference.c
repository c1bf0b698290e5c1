#include <math.h>
#include <stdint.h>

#define DEFINE_CG(NAME, real)                                                                   \
  void NAME(const real *restrict b, const real *restrict data, real *restrict diag,             \
            const int32_t *restrict indices, const int32_t *restrict indptr, real *restrict p,  \
            real *restrict q, real *restrict r, real *restrict x, const int64_t N,              \
            const int64_t NNZ, const int64_t iters, uint8_t *restrict workspace,                \
            const int64_t workspace_size) {                                                     \
    (void)NNZ;                                                                                  \
    (void)workspace;                                                                            \
    (void)workspace_size;                                                                       \
    /* D = 1 + row and column absolute sums of C */                                             \
    for (int64_t i = 0; i < N; i++) diag[i] = 1;                                                \
    for (int64_t i = 0; i < N; i++)                                                             \
      for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) {                                     \
        diag[i] += fabs(data[k]);                                                               \
        diag[indices[k]] += fabs(data[k]);                                                      \
      }                                                                                         \
    real rr = 0;                                                                                \
    for (int64_t i = 0; i < N; i++) {                                                           \
      x[i] = 0;                                                                                 \
      r[i] = b[i];                                                                              \
      p[i] = b[i];                                                                              \
      rr += r[i] * r[i];                                                                        \
    }                                                                                           \
    for (int64_t it = 0; it < iters; it++) {                                                    \
      /* q = (D + C + C^T) p */                                                                 \
      for (int64_t i = 0; i < N; i++) q[i] = diag[i] * p[i];                                    \
      for (int64_t i = 0; i < N; i++)                                                           \
        for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) {                                   \
          q[i] += data[k] * p[indices[k]];                                                      \
          q[indices[k]] += data[k] * p[i];                                                      \
        }                                                                                       \
      real pq = 0;                                                                              \
      for (int64_t i = 0; i < N; i++) pq += p[i] * q[i];                                        \
      const real alpha = rr / pq;                                                               \
      real rr_new = 0;                                                                          \
      for (int64_t i = 0; i < N; i++) {                                                         \
        x[i] += alpha * p[i];                                                                   \
        r[i] -= alpha * q[i];                                                                   \
        rr_new += r[i] * r[i];                                                                  \
      }                                                                                         \
      const real beta = rr_new / rr;                                                            \
      for (int64_t i = 0; i < N; i++) p[i] = r[i] + beta * p[i];                                \
      rr = rr_new;                                                                              \
    }                                                                                           \
  }

DEFINE_CG(cg_fp64, double)
DEFINE_CG(cg_fp32, float)
