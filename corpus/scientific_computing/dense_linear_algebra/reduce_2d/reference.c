#include <stdint.h>

void reduce_2d_fp64(const double *restrict A, double *restrict out, const int64_t M,
                    const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double s = 0.0;
    for (int64_t j = 0; j < M; j++) s += A[i * M + j];
    out[i] = s;
  }
}

void reduce_2d_fp32(const float *restrict A, float *restrict out, const int64_t M,
                    const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float s = 0.0f;
    for (int64_t j = 0; j < M; j++) s += A[i * M + j];
    out[i] = s;
  }
}
