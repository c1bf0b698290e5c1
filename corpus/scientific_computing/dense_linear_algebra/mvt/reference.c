#include <stdint.h>

void mvt_fp64(const double *restrict A, double *restrict x1, double *restrict x2,
              const double *restrict y1, const double *restrict y2, const int64_t N,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) x1[i] += A[i * N + j] * y1[j];
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) x2[i] += A[j * N + i] * y2[j];
}

void mvt_fp32(const float *restrict A, float *restrict x1, float *restrict x2,
              const float *restrict y1, const float *restrict y2, const int64_t N,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) x1[i] += A[i * N + j] * y1[j];
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) x2[i] += A[j * N + i] * y2[j];
}
