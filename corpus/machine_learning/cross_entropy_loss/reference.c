#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(cross_entropy_loss)(const real *restrict logits, real *restrict loss,
                                      const int64_t *restrict target, const int64_t C, const int64_t N,
                                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real total = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    const real *restrict li = logits + i * C;
    real m = li[0];
    for (int64_t j = 1; j < C; j++) m = li[j] > m ? li[j] : m;
    real sum = (real)0.0;
    for (int64_t j = 0; j < C; j++) sum += exp(li[j] - m);
    total += log(sum) - (li[target[i]] - m);
  }
  loss[0] = total / (real)N;
}
