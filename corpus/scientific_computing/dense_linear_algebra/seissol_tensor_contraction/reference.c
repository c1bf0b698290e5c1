#include <stdint.h>
#include <stdlib.h>

void seissol_tensor_contraction_fp64(const double *restrict I, double *restrict Q,
                                     const double *restrict kDivM, const double *restrict star,
                                     const int64_t NB, const int64_t NQ, const int64_t batch,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* per element: t = I[b] star[d] (NB x NQ), then acc += kDivM[d] t over the 3 directions */
  double *restrict t = malloc((size_t)(NB * NQ) * sizeof(double));
  double *restrict acc = malloc((size_t)(NB * NQ) * sizeof(double));
  if (t == NULL || acc == NULL) abort();
  for (int64_t b = 0; b < batch; b++) {
    const double *Ib = I + b * NB * NQ;
    double *Qb = Q + b * NB * NQ;
    for (int64_t x = 0; x < NB * NQ; x++) acc[x] = 0.0;
    for (int64_t d = 0; d < 3; d++) {
      const double *S = star + d * NQ * NQ;
      const double *K = kDivM + d * NB * NB;
      for (int64_t l = 0; l < NB; l++)
        for (int64_t p = 0; p < NQ; p++) {
          double s = 0.0;
          for (int64_t q = 0; q < NQ; q++) s += Ib[l * NQ + q] * S[q * NQ + p];
          t[l * NQ + p] = s;
        }
      for (int64_t k = 0; k < NB; k++)
        for (int64_t l = 0; l < NB; l++) {
          const double a = K[k * NB + l];
          for (int64_t p = 0; p < NQ; p++) acc[k * NQ + p] += a * t[l * NQ + p];
        }
    }
    for (int64_t x = 0; x < NB * NQ; x++) Qb[x] += acc[x];
  }
  free(t);
  free(acc);
}

void seissol_tensor_contraction_fp32(const float *restrict I, float *restrict Q,
                                     const float *restrict kDivM, const float *restrict star,
                                     const int64_t NB, const int64_t NQ, const int64_t batch,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* per element: t = I[b] star[d] (NB x NQ), then acc += kDivM[d] t over the 3 directions */
  float *restrict t = malloc((size_t)(NB * NQ) * sizeof(float));
  float *restrict acc = malloc((size_t)(NB * NQ) * sizeof(float));
  if (t == NULL || acc == NULL) abort();
  for (int64_t b = 0; b < batch; b++) {
    const float *Ib = I + b * NB * NQ;
    float *Qb = Q + b * NB * NQ;
    for (int64_t x = 0; x < NB * NQ; x++) acc[x] = 0.0f;
    for (int64_t d = 0; d < 3; d++) {
      const float *S = star + d * NQ * NQ;
      const float *K = kDivM + d * NB * NB;
      for (int64_t l = 0; l < NB; l++)
        for (int64_t p = 0; p < NQ; p++) {
          float s = 0.0f;
          for (int64_t q = 0; q < NQ; q++) s += Ib[l * NQ + q] * S[q * NQ + p];
          t[l * NQ + p] = s;
        }
      for (int64_t k = 0; k < NB; k++)
        for (int64_t l = 0; l < NB; l++) {
          const float a = K[k * NB + l];
          for (int64_t p = 0; p < NQ; p++) acc[k * NQ + p] += a * t[l * NQ + p];
        }
    }
    for (int64_t x = 0; x < NB * NQ; x++) Qb[x] += acc[x];
  }
  free(t);
  free(acc);
}
