#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(softmax)(real *restrict out, const real *restrict x, const int64_t D,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real *restrict xi = x + i * D;
    real *restrict oi = out + i * D;
    real m = xi[0];
    for (int64_t j = 1; j < D; j++) m = xi[j] > m ? xi[j] : m;
    real sum = (real)0.0;
    for (int64_t j = 0; j < D; j++) {
      oi[j] = exp(xi[j] - m);
      sum += oi[j];
    }
    for (int64_t j = 0; j < D; j++) oi[j] /= sum;
  }
}
