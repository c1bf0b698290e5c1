#include <stdint.h>

void HPCAB_KERNEL(safety_map_of_scans)(const real *restrict a, real *restrict b, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 1; j < N; j++) b[i * N + j] = b[i * N + j - 1] + a[i * N + j];
}
