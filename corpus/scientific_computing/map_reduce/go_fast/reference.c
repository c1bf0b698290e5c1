#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(go_fast)(const real *restrict a, real *restrict out, const int64_t N,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real trace = (real)0.0;
  for (int64_t i = 0; i < N; i++) trace += tanh(a[i * N + i]);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) out[i * N + j] = a[i * N + j] + trace;
}
