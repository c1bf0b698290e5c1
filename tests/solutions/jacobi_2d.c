// Fast jacobi_2d submission (fused sweeps, OpenMP row blocks, bit-exact) for demos and e2e tests.
#include <omp.h>
#include <stdint.h>

/*
 * Each time step of the reference makes two full sweeps (B <- A, then A <- B). Here they are
 * fused row by row: once B row i is computed, every input of A row i-1 (B rows i-2, i-1, i) is
 * final, and A row i-1 is no longer read by any later B row of the step, so it is updated at
 * once: one pass over the grids per step instead of two, with the B rows still in cache.
 *
 * Threads own contiguous ranges [r0, r1) of interior rows. A thread's two edge rows of A
 * (r0 and r1-1) are read by its neighbours' B rows, so they are updated only after a barrier;
 * a second barrier ends the step. No pointer swap: A and B both end as the reference leaves
 * them, and every element uses the reference's expression in the same order, so the result is
 * bit-identical to the reference. Small grids run on one thread (barriers would dominate).
 */

/* Fewer interior points than this per step: one thread. */
#ifndef JACOBI_PAR_MIN
#define JACOBI_PAR_MIN 4.0e4
#endif

/* clang-format off */
#define DEFINE_JACOBI(T, SUF, C02)                                                                 \
  /* dst row i (interior columns) = 0.2 * 5-point sum of src around row i */                       \
  static inline void row_##SUF(T *restrict dst, const T *restrict src, int64_t N, int64_t i) {     \
    const T *restrict up = src + (i - 1) * N;                                                      \
    const T *restrict mid = src + i * N;                                                           \
    const T *restrict dn = src + (i + 1) * N;                                                      \
    T *restrict out = dst + i * N;                                                                 \
    _Pragma("omp simd")                                                                            \
    for (int64_t j = 1; j < N - 1; j++)                                                            \
      out[j] = C02 * (mid[j] + mid[j - 1] + mid[j + 1] + dn[j] + up[j]);                           \
  }                                                                                                \
                                                                                                   \
  /* All TSTEPS steps on interior rows [r0, r1); `parallel`: every thread of a team calls it. */   \
  static void range_##SUF(T *restrict A, T *restrict B, int64_t N, int64_t TSTEPS, int64_t r0,     \
                          int64_t r1, int parallel) {                                              \
    for (int64_t t = 0; t < TSTEPS; t++) {                                                         \
      for (int64_t i = r0; i < r1; i++) {                                                          \
        row_##SUF(B, A, N, i);                                                                     \
        if (i - 1 > r0) row_##SUF(A, B, N, i - 1); /* A rows r0+1 .. r1-2 */                       \
      }                                                                                            \
      if (parallel) {                                                                              \
        _Pragma("omp barrier")                                                                     \
      }                                                                                            \
      if (r1 > r0) row_##SUF(A, B, N, r0);                                                         \
      if (r1 - 1 > r0) row_##SUF(A, B, N, r1 - 1);                                                 \
      if (parallel) {                                                                              \
        _Pragma("omp barrier")                                                                     \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
                                                                                                   \
  void jacobi_2d_##SUF(T *restrict A, T *restrict B, const int64_t N, const int64_t TSTEPS,        \
                       uint8_t *restrict workspace, const int64_t workspace_size) {                \
    (void)workspace;                                                                               \
    (void)workspace_size;                                                                          \
    if (N < 3 || TSTEPS <= 0) return;                                                              \
    const int64_t rows = N - 2;                                                                    \
    int64_t nthreads = omp_get_max_threads();                                                      \
    if ((double)rows * (double)rows < JACOBI_PAR_MIN) nthreads = 1;                                \
    if (nthreads > rows / 4) nthreads = rows / 4; /* at least 4 rows each */                       \
    if (nthreads <= 1) {                                                                           \
      range_##SUF(A, B, N, TSTEPS, 1, N - 1, 0);                                                   \
      return;                                                                                      \
    }                                                                                              \
    _Pragma("omp parallel num_threads(nthreads)")                                                  \
    {                                                                                              \
      const int64_t nt = omp_get_num_threads();                                                    \
      const int64_t tid = omp_get_thread_num();                                                    \
      range_##SUF(A, B, N, TSTEPS, 1 + rows * tid / nt, 1 + rows * (tid + 1) / nt, nt > 1);        \
    }                                                                                              \
  }
/* clang-format on */

DEFINE_JACOBI(double, fp64, 0.2)
DEFINE_JACOBI(float, fp32, 0.2f)
