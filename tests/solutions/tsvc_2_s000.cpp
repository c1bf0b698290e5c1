// tsvc_2_s000 submission in C++ (extern "C", __restrict__, OpenMP + SIMD) for multi-language e2e tests.
#include <cstdint>

extern "C" void tsvc_2_s000_fp64(double *__restrict__ a, const double *__restrict__ b, const int64_t N,
                          uint8_t *__restrict__ workspace, const int64_t workspace_size) {
  static_cast<void>(workspace);
  static_cast<void>(workspace_size);
#pragma omp parallel for simd schedule(static) if (N >= 65536)
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

extern "C" void tsvc_2_s000_fp32(float *__restrict__ a, const float *__restrict__ b, const int64_t N,
                          uint8_t *__restrict__ workspace, const int64_t workspace_size) {
  static_cast<void>(workspace);
  static_cast<void>(workspace_size);
#pragma omp parallel for simd schedule(static) if (N >= 65536)
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
