#include <stdint.h>

void spmv_fp64(const double *restrict data, const int64_t *restrict indices,
               const int64_t *restrict indptr, const double *restrict x, double *restrict y,
               const int64_t N, const int64_t NNZ, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double s = 0.0;
    for (int64_t p = indptr[i]; p < indptr[i + 1]; p++) s += data[p] * x[indices[p]];
    y[i] = s;
  }
}

void spmv_fp32(const float *restrict data, const int64_t *restrict indices,
               const int64_t *restrict indptr, const float *restrict x, float *restrict y,
               const int64_t N, const int64_t NNZ, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float s = 0.0f;
    for (int64_t p = indptr[i]; p < indptr[i + 1]; p++) s += data[p] * x[indices[p]];
    y[i] = s;
  }
}
