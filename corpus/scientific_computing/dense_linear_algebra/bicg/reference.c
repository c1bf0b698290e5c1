#include <stdint.h>

void bicg_fp64(const double *restrict A, const double *restrict p, double *restrict q,
               const double *restrict r, double *restrict s, const int64_t M, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < M; j++) s[j] = 0.0;
  for (int64_t i = 0; i < N; i++) {
    double acc = 0.0;
    for (int64_t j = 0; j < M; j++) {
      s[j] += r[i] * A[i * M + j];
      acc += A[i * M + j] * p[j];
    }
    q[i] = acc;
  }
}

void bicg_fp32(const float *restrict A, const float *restrict p, float *restrict q,
               const float *restrict r, float *restrict s, const int64_t M, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < M; j++) s[j] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    float acc = 0.0f;
    for (int64_t j = 0; j < M; j++) {
      s[j] += r[i] * A[i * M + j];
      acc += A[i * M + j] * p[j];
    }
    q[i] = acc;
  }
}
