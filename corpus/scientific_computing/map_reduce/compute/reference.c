#include <stdint.h>

void HPCAB_KERNEL(compute)(const int64_t *restrict array_1, const int64_t *restrict array_2,
                           int64_t *restrict out, const int64_t M, const int64_t N, const int64_t a,
                           const int64_t b, const int64_t c, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      int64_t v = array_1[i * N + j];
      if (v < 2) v = 2;
      if (v > 10) v = 10;
      out[i * N + j] = v * a + array_2[i * N + j] * b + c;
    }
}
