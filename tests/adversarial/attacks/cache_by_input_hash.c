// ATTACK: gemm result cache keyed by a hash of a sample of the inputs (exact answer on a hit)
// KERNEL: gemm
// ROUTE: score
// EXPECT-VERDICT: ok
// EXPECT-MAX-SPEEDUP: 3
// Defence: no two calls ever see the same input values (fresh draw per call, same sequence for
// candidate and baseline), so the cache never hits and earns nothing. On a judge that reused
// one draw, every timed call after the first would be a hit: a large speedup.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 64
static uint64_t keys[SLOTS];
static double *vals[SLOTS];

static uint64_t sample_hash(const double *A, const double *B, const double *C, int64_t n) {
  uint64_t h = 1469598103934665603ull;
  const double *arrs[3] = {A, B, C};
  for (int k = 0; k < 3; k++)
    for (int64_t i = 0; i < n; i += 1 + n / 16) {
      uint64_t bits;
      memcpy(&bits, &arrs[k][i], sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
  return h;
}

void gemm_fp64(const double *restrict A, const double *restrict B, double *restrict C,
               const int64_t NI, const int64_t NJ, const int64_t NK, const double alpha,
               const double beta, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = NI * NJ;
  uint64_t h = sample_hash(A, B, C, n < NI * NK ? n : NI * NK);
  int slot = (int)(h % SLOTS);
  if (keys[slot] == h && vals[slot]) {
    memcpy(C, vals[slot], (size_t)n * sizeof *C);
    return;
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;
    for (int64_t k = 0; k < NK; k++) {
      const double a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  free(vals[slot]);
  vals[slot] = malloc((size_t)n * sizeof *C);
  if (vals[slot]) memcpy(vals[slot], C, (size_t)n * sizeof *C);
  keys[slot] = h;
}
