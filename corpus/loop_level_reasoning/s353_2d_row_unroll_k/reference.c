#include <stdint.h>

void HPCAB_KERNEL(s353_2d_row_unroll_k)(const real *restrict a, real *restrict b,
                                        const int64_t *restrict ip, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t i = 0;
  for (; i + 11 <= N; i += 11) {
    for (int64_t j = 0; j < N; j++) {
      b[(i + 0) * N + j] = a[(i + 0) * N + ip[j]] + (real)1.0;
      b[(i + 1) * N + j] = a[(i + 1) * N + ip[j]] + (real)1.0;
      b[(i + 2) * N + j] = a[(i + 2) * N + ip[j]] + (real)1.0;
      b[(i + 3) * N + j] = a[(i + 3) * N + ip[j]] + (real)1.0;
      b[(i + 4) * N + j] = a[(i + 4) * N + ip[j]] + (real)1.0;
      b[(i + 5) * N + j] = a[(i + 5) * N + ip[j]] + (real)1.0;
      b[(i + 6) * N + j] = a[(i + 6) * N + ip[j]] + (real)1.0;
      b[(i + 7) * N + j] = a[(i + 7) * N + ip[j]] + (real)1.0;
      b[(i + 8) * N + j] = a[(i + 8) * N + ip[j]] + (real)1.0;
      b[(i + 9) * N + j] = a[(i + 9) * N + ip[j]] + (real)1.0;
      b[(i + 10) * N + j] = a[(i + 10) * N + ip[j]] + (real)1.0;
    }
  }
  for (; i < N; i++)
    for (int64_t j = 0; j < N; j++) b[i * N + j] = a[i * N + ip[j]] + (real)1.0;
}
