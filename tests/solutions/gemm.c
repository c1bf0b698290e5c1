// Fast gemm submission (packed, cache-blocked, register-tiled, OpenMP) for demos and e2e tests.
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * C = alpha*A*B + beta*C, A: NI x NK, B: NK x NJ, C: NI x NJ, all row-major.
 *
 * GotoBLAS/BLIS structure:
 *   - for each KC block of k, all threads pack that slice of B into KC x NR panels, zero-padded
 *     to NR columns (so scratch stays small: KC x NJ, plus one A block per thread);
 *   - the rows of C are split into one contiguous range of MR-row panels per thread;
 *   - each thread packs MC x KC blocks of alpha*A into k-major MR-row panels (zero-padded) and
 *     runs an MR x NR register-tiled micro-kernel written with GCC vector extensions: one FMA
 *     per accumulator and k, mapped by the compiler to AVX-512, AVX2 or SSE registers.
 * The first KC block of k stores C = beta*C + acc, the later ones C += acc. Only the sum over k
 * is reassociated (by blocks of KC), which the comparator's reduction floor allows.
 * Scratch (packed B, one packed A block per thread) is malloc'ed per call; the workspace
 * argument is not used.
 */

#if defined(__AVX512F__)
#define VBYTES 64 /* 32 zmm registers: 8 x 3 accumulators + 3 B vectors + 1 broadcast */
#define MR 8
#define NV 3
#elif defined(__AVX__)
#define VBYTES 32 /* 16 ymm registers: 6 x 2 accumulators + 2 + 1 */
#define MR 6
#define NV 2
#else
#define VBYTES 16
#define MR 4
#define NV 2
#endif

#ifndef KC
#define KC 256 /* k block: a KC x NR panel of B and the MC x KC block of A stay in L1 / L2 */
#endif
#ifndef MC
#define MC (MR * 16) /* rows per packed A block (128 x 256 in fp64: 256 KB, in L2) */
#endif

/* Below this many multiply-adds (NI*NJ*NK) one thread does it all. */
#ifndef GEMM_PAR_MIN
#define GEMM_PAR_MIN 2.0e5
#endif

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* clang-format off */
#define DEFINE_GEMM(T, SUF)                                                                        \
  /* aligned vectors for the packed buffers, element-aligned ones for C */                         \
  typedef T vec_##SUF __attribute__((vector_size(VBYTES), aligned(VBYTES)));                       \
  typedef T uvec_##SUF __attribute__((vector_size(VBYTES), aligned(sizeof(T))));                   \
  enum { VL_##SUF = VBYTES / (int)sizeof(T), NR_##SUF = NV * VL_##SUF };                           \
                                                                                                   \
  /* acc = Ap (kc x MR, k-major) * Bp (kc x NR); then the valid mr x nr corner of the C tile */    \
  /* becomes beta*C + acc on the first k block, C + acc on the others. */                          \
  static inline void kernel_##SUF(int64_t kc, const T *restrict Ap, const T *restrict Bp,          \
                                  T *restrict C, int64_t ldc, int64_t mr, int64_t nr,              \
                                  int first, T beta) {                                             \
    vec_##SUF acc[MR][NV];                                                                         \
    for (int r = 0; r < MR; r++)                                                                   \
      for (int v = 0; v < NV; v++) acc[r][v] = (vec_##SUF){0};                                     \
    for (int64_t k = 0; k < kc; k++) {                                                             \
      vec_##SUF b[NV];                                                                             \
      for (int v = 0; v < NV; v++) b[v] = *(const vec_##SUF *)(Bp + k * NR_##SUF + v * VL_##SUF);  \
      for (int r = 0; r < MR; r++) {                                                               \
        const T a = Ap[k * MR + r];                                                                \
        for (int v = 0; v < NV; v++) acc[r][v] += a * b[v];                                        \
      }                                                                                            \
    }                                                                                              \
    if (mr == MR && nr == NR_##SUF) {                                                              \
      for (int r = 0; r < MR; r++)                                                                 \
        for (int v = 0; v < NV; v++) {                                                             \
          uvec_##SUF *c = (uvec_##SUF *)(C + r * ldc + v * VL_##SUF);                              \
          *c = first ? beta * *c + acc[r][v] : *c + acc[r][v];                                     \
        }                                                                                          \
    } else {                                                                                       \
      T tile[MR][NR_##SUF] __attribute__((aligned(VBYTES)));                                       \
      for (int r = 0; r < MR; r++)                                                                 \
        for (int v = 0; v < NV; v++) *(vec_##SUF *)&tile[r][v * VL_##SUF] = acc[r][v];             \
      for (int64_t r = 0; r < mr; r++)                                                             \
        for (int64_t j = 0; j < nr; j++) {                                                         \
          T *c = C + r * ldc + j;                                                                  \
          *c = first ? beta * *c + tile[r][j] : *c + tile[r][j];                                   \
        }                                                                                          \
    }                                                                                              \
  }                                                                                                \
                                                                                                   \
  /* The reference loop nest, for the (unlikely) case that scratch cannot be allocated. */         \
  static void plain_##SUF(const T *restrict A, const T *restrict B, T *restrict C, int64_t NI,     \
                          int64_t NJ, int64_t NK, T alpha, T beta) {                               \
    for (int64_t i = 0; i < NI; i++) {                                                             \
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;                                      \
      for (int64_t k = 0; k < NK; k++) {                                                           \
        const T a = alpha * A[i * NK + k];                                                         \
        for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];                       \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
                                                                                                   \
  void gemm_##SUF(const T *restrict A, const T *restrict B, T *restrict C, const int64_t NI,       \
                  const int64_t NJ, const int64_t NK, const T alpha, const T beta,                 \
                  uint8_t *restrict workspace, const int64_t workspace_size) {                     \
    (void)workspace;                                                                               \
    (void)workspace_size;                                                                          \
    const int64_t NR = NR_##SUF;                                                                   \
    if (NI <= 0 || NJ <= 0) return;                                                                \
    if (NK <= 0) {                                                                                 \
      for (int64_t i = 0; i < NI * NJ; i++) C[i] *= beta;                                          \
      return;                                                                                      \
    }                                                                                              \
    const int64_t npanels = (NJ + NR - 1) / NR; /* NR-column panels of B and C */                  \
    const int64_t mpanels = (NI + MR - 1) / MR; /* MR-row panels of A and C */                     \
    const int64_t nkb = (NK + KC - 1) / KC;     /* k blocks */                                     \
    int nthreads = omp_get_max_threads();                                                          \
    if ((double)NI * (double)NJ * (double)NK < GEMM_PAR_MIN) nthreads = 1;                         \
    if (nthreads > mpanels) nthreads = (int)mpanels;                                               \
    if (nthreads < 1) nthreads = 1;                                                                \
    const size_t bp_elems = (size_t)min64(NK, KC) * (size_t)(npanels * NR);                        \
    const size_t ap_elems = (size_t)min64(mpanels * MR, MC) * (size_t)min64(NK, KC);               \
    const size_t bytes = (bp_elems + ap_elems * (size_t)nthreads) * sizeof(T);                     \
    T *buf = (T *)aligned_alloc(64, (bytes + 63) / 64 * 64);                                       \
    if (!buf) {                                                                                    \
      plain_##SUF(A, B, C, NI, NJ, NK, alpha, beta);                                               \
      return;                                                                                      \
    }                                                                                              \
    T *restrict Bp = buf;                                                                          \
    _Pragma("omp parallel num_threads(nthreads)")                                                  \
    {                                                                                              \
      const int tid = omp_get_thread_num();                                                        \
      const int nt = omp_get_num_threads();                                                        \
      /* This thread's rows of C: a contiguous run of MR-row panels. */                            \
      const int64_t per = (mpanels + nt - 1) / nt;                                                 \
      const int64_t i_begin = (int64_t)tid * per * MR;                                             \
      const int64_t i_end = min64(i_begin + per * MR, NI);                                         \
      T *restrict Ap = buf + bp_elems + (size_t)tid * ap_elems;                                    \
      for (int64_t kb = 0; kb < nkb; kb++) {                                                       \
        const int64_t k0 = kb * KC, kc = min64(NK - k0, KC);                                       \
        /* 1. All threads pack B[k0:k0+kc, :] into npanels kc x NR panels, zero-padded to NR */    \
        /*    columns (the implicit barrier of the omp for publishes them). */                     \
        _Pragma("omp for schedule(static)")                                                        \
        for (int64_t p = 0; p < npanels; p++) {                                                    \
          const int64_t j0 = p * NR, nr = min64(NJ - j0, NR);                                      \
          T *restrict dst = Bp + p * kc * NR;                                                      \
          for (int64_t k = 0; k < kc; k++) {                                                       \
            const T *restrict src = B + (k0 + k) * NJ + j0;                                        \
            T *restrict d = dst + k * NR;                                                          \
            int64_t j = 0;                                                                         \
            for (; j < nr; j++) d[j] = src[j];                                                     \
            for (; j < NR; j++) d[j] = (T)0;                                                       \
          }                                                                                        \
        }                                                                                          \
        /* 2. Each thread updates its rows with this k block. */                                   \
        for (int64_t i0 = i_begin; i0 < i_end; i0 += MC) {                                         \
          const int64_t mc = min64(i_end - i0, MC);                                                \
          /* Pack alpha*A[i0:i0+mc, k0:k0+kc] into k-major MR-row panels, zero-padded rows. */     \
          for (int64_t ir = 0; ir < mc; ir += MR) {                                                \
            const int64_t mr = min64(mc - ir, MR);                                                 \
            T *restrict d = Ap + ir * kc;                                                          \
            for (int64_t r = 0; r < mr; r++) {                                                     \
              const T *restrict src = A + (i0 + ir + r) * NK + k0;                                 \
              for (int64_t k = 0; k < kc; k++) d[k * MR + r] = alpha * src[k];                     \
            }                                                                                      \
            for (int64_t r = mr; r < MR; r++)                                                      \
              for (int64_t k = 0; k < kc; k++) d[k * MR + r] = (T)0;                               \
          }                                                                                        \
          /* The B panel (kc x NR) stays in L1 while all the A panels of the block pass. */        \
          for (int64_t p = 0; p < npanels; p++) {                                                  \
            const int64_t j0 = p * NR, nr = min64(NJ - j0, NR);                                    \
            for (int64_t ir = 0; ir < mc; ir += MR)                                                \
              kernel_##SUF(kc, Ap + ir * kc, Bp + p * kc * NR, C + (i0 + ir) * NJ + j0, NJ,        \
                           min64(mc - ir, MR), nr, kb == 0, beta);                                 \
          }                                                                                        \
        }                                                                                          \
        /* 3. Nobody repacks B before everybody is done with it. */                                \
        if (kb + 1 < nkb) {                                                                        \
          _Pragma("omp barrier")                                                                   \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    free(buf);                                                                                     \
  }
/* clang-format on */

DEFINE_GEMM(double, fp64)
DEFINE_GEMM(float, fp32)
