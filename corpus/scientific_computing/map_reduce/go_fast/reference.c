#include <math.h>
#include <stdint.h>

void go_fast_fp64(const double *restrict a, double *restrict out, const int64_t N,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double trace = 0.0;
  for (int64_t i = 0; i < N; i++) trace += tanh(a[i * N + i]);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) out[i * N + j] = a[i * N + j] + trace;
}

void go_fast_fp32(const float *restrict a, float *restrict out, const int64_t N,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float trace = 0.0f;
  for (int64_t i = 0; i < N; i++) trace += tanhf(a[i * N + i]);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) out[i * N + j] = a[i * N + j] + trace;
}
