#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void srad_fp64(double *restrict J, const int64_t cols, const double lam, const int64_t rows,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  double *restrict c = hpcab_scratch(rows * cols, sizeof(double));
  double *restrict dE = hpcab_scratch(rows * cols, sizeof(double));
  double *restrict dN = hpcab_scratch(rows * cols, sizeof(double));
  double *restrict dS = hpcab_scratch(rows * cols, sizeof(double));
  double *restrict dW = hpcab_scratch(rows * cols, sizeof(double));
  double sum = 0.0, sum2 = 0.0;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      const double tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  const double size = (double)(rows * cols);
  const double mean = sum / size;
  const double var = sum2 / size - mean * mean;
  const double q0sqr = var / (mean * mean);

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iN = i > 0 ? i - 1 : 0;
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jW = j > 0 ? j - 1 : 0;
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const double Jc = J[k];
      dN[k] = J[iN * cols + j] - Jc;
      dS[k] = J[iS * cols + j] - Jc;
      dW[k] = J[i * cols + jW] - Jc;
      dE[k] = J[i * cols + jE] - Jc;
      const double G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
      const double L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
      const double num = 0.5 * G2 - (1.0 / 16.0) * (L * L);
      double den = 1.0 + 0.25 * L;
      const double qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
      double ck = 1.0 / (1.0 + den);
      if (ck < 0.0)
        ck = 0.0;
      else if (ck > 1.0)
        ck = 1.0;
      c[k] = ck;
    }
  }

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const double D = c[k] * dN[k] + c[iS * cols + j] * dS[k] + c[k] * dW[k] + c[i * cols + jE] * dE[k];
      J[k] = J[k] + 0.25 * lam * D;
    }
  }
  free(c);
  free(dE);
  free(dN);
  free(dS);
  free(dW);
}

void srad_fp32(float *restrict J, const int64_t cols, const float lam, const int64_t rows,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  float *restrict c = hpcab_scratch(rows * cols, sizeof(float));
  float *restrict dE = hpcab_scratch(rows * cols, sizeof(float));
  float *restrict dN = hpcab_scratch(rows * cols, sizeof(float));
  float *restrict dS = hpcab_scratch(rows * cols, sizeof(float));
  float *restrict dW = hpcab_scratch(rows * cols, sizeof(float));
  float sum = 0.0f, sum2 = 0.0f;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      const float tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  const float size = (float)(rows * cols);
  const float mean = sum / size;
  const float var = sum2 / size - mean * mean;
  const float q0sqr = var / (mean * mean);

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iN = i > 0 ? i - 1 : 0;
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jW = j > 0 ? j - 1 : 0;
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const float Jc = J[k];
      dN[k] = J[iN * cols + j] - Jc;
      dS[k] = J[iS * cols + j] - Jc;
      dW[k] = J[i * cols + jW] - Jc;
      dE[k] = J[i * cols + jE] - Jc;
      const float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
      const float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
      const float num = 0.5f * G2 - (1.0f / 16.0f) * (L * L);
      float den = 1.0f + 0.25f * L;
      const float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
      float ck = 1.0f / (1.0f + den);
      if (ck < 0.0f)
        ck = 0.0f;
      else if (ck > 1.0f)
        ck = 1.0f;
      c[k] = ck;
    }
  }

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const float D = c[k] * dN[k] + c[iS * cols + j] * dS[k] + c[k] * dW[k] + c[i * cols + jE] * dE[k];
      J[k] = J[k] + 0.25f * lam * D;
    }
  }
  free(c);
  free(dE);
  free(dN);
  free(dS);
  free(dW);
}
