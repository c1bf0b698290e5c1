#include <stdint.h>

void gemver_fp64(double *restrict A, const double *restrict u1, const double *restrict u2,
                 const double *restrict v1, const double *restrict v2, double *restrict w,
                 double *restrict x, const double *restrict y, const double *restrict z,
                 const int64_t N, const double alpha, const double beta,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) A[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
  for (int64_t i = 0; i < N; i++) {
    double acc = 0.0;
    for (int64_t j = 0; j < N; j++) acc += A[j * N + i] * y[j];
    x[i] += beta * acc + z[i];
  }
  for (int64_t i = 0; i < N; i++) {
    double acc = 0.0;
    for (int64_t j = 0; j < N; j++) acc += A[i * N + j] * x[j];
    w[i] += alpha * acc;
  }
}

void gemver_fp32(float *restrict A, const float *restrict u1, const float *restrict u2,
                 const float *restrict v1, const float *restrict v2, float *restrict w,
                 float *restrict x, const float *restrict y, const float *restrict z,
                 const int64_t N, const float alpha, const float beta,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) A[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
  for (int64_t i = 0; i < N; i++) {
    float acc = 0.0f;
    for (int64_t j = 0; j < N; j++) acc += A[j * N + i] * y[j];
    x[i] += beta * acc + z[i];
  }
  for (int64_t i = 0; i < N; i++) {
    float acc = 0.0f;
    for (int64_t j = 0; j < N; j++) acc += A[i * N + j] * x[j];
    w[i] += alpha * acc;
  }
}
