#include <stdint.h>

void tsvc_2_s1351_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double *restrict pa = a;
  const double *restrict pb = b;
  const double *restrict pc = c;
  for (int64_t i = 0; i < N; i++) {
    *pa = *pb + *pc;
    pa++;
    pb++;
    pc++;
  }
}

void tsvc_2_s1351_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float *restrict pa = a;
  const float *restrict pb = b;
  const float *restrict pc = c;
  for (int64_t i = 0; i < N; i++) {
    *pa = *pb + *pc;
    pa++;
    pb++;
    pc++;
  }
}
