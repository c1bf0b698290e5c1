#include <stdint.h>

void ext_break_capture_fp64(const double *restrict a, int64_t *restrict out_index,
                            double *restrict out_value, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out_index[0] = -1;
  out_value[0] = -1.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] * (double)N < 2.0) {
      out_index[0] = i;
      out_value[0] = a[i];
      break;
    }
  }
}

void ext_break_capture_fp32(const float *restrict a, int64_t *restrict out_index,
                            float *restrict out_value, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out_index[0] = -1;
  out_value[0] = -1.0f;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] * (float)N < 2.0f) {
      out_index[0] = i;
      out_value[0] = a[i];
      break;
    }
  }
}
