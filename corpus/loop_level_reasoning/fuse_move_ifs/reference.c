#include <stdint.h>

void HPCAB_KERNEL(fuse_move_ifs)(real *restrict a, real *restrict b, const real *restrict cond,
                                 const real *restrict src, const int64_t K, const int64_t N,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    if (cond[i] > (real)0.0)
      for (int64_t j = 0; j < N; j++) a[i * N + j] = src[i * N + j] * (real)2.0;
  if (K > 0)
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < N; j++) b[i * N + j] += src[i * N + j] + (real)1.0;
}
