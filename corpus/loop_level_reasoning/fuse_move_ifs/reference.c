#include <stdint.h>

void fuse_move_ifs_fp64(double *restrict a, double *restrict b, const double *restrict cond,
                        const double *restrict src, const int64_t K, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    if (cond[i] > 0.0)
      for (int64_t j = 0; j < N; j++) a[i * N + j] = src[i * N + j] * 2.0;
  if (K > 0)
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < N; j++) b[i * N + j] += src[i * N + j] + 1.0;
}

void fuse_move_ifs_fp32(float *restrict a, float *restrict b, const float *restrict cond,
                        const float *restrict src, const int64_t K, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    if (cond[i] > 0.0f)
      for (int64_t j = 0; j < N; j++) a[i * N + j] = src[i * N + j] * 2.0f;
  if (K > 0)
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < N; j++) b[i * N + j] += src[i * N + j] + 1.0f;
}
