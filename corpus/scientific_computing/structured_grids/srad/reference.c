#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(srad)(real *restrict J, const int64_t cols, const real lam, const int64_t rows,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  real *restrict c = hpcab_scratch(rows * cols, sizeof(real));
  real *restrict dE = hpcab_scratch(rows * cols, sizeof(real));
  real *restrict dN = hpcab_scratch(rows * cols, sizeof(real));
  real *restrict dS = hpcab_scratch(rows * cols, sizeof(real));
  real *restrict dW = hpcab_scratch(rows * cols, sizeof(real));
  real sum = (real)0.0, sum2 = (real)0.0;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      const real tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  const real size = (real)(rows * cols);
  const real mean = sum / size;
  const real var = sum2 / size - mean * mean;
  const real q0sqr = var / (mean * mean);

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iN = i > 0 ? i - 1 : 0;
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jW = j > 0 ? j - 1 : 0;
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const real Jc = J[k];
      dN[k] = J[iN * cols + j] - Jc;
      dS[k] = J[iS * cols + j] - Jc;
      dW[k] = J[i * cols + jW] - Jc;
      dE[k] = J[i * cols + jE] - Jc;
      const real G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
      const real L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
      const real num = (real)0.5 * G2 - ((real)1.0 / (real)16.0) * (L * L);
      real den = (real)1.0 + (real)0.25 * L;
      const real qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * ((real)1.0 + q0sqr));
      real ck = (real)1.0 / ((real)1.0 + den);
      if (ck < (real)0.0)
        ck = (real)0.0;
      else if (ck > (real)1.0)
        ck = (real)1.0;
      c[k] = ck;
    }
  }

  for (int64_t i = 0; i < rows; i++) {
    const int64_t iS = i < rows - 1 ? i + 1 : rows - 1;
    for (int64_t j = 0; j < cols; j++) {
      const int64_t jE = j < cols - 1 ? j + 1 : cols - 1;
      const int64_t k = i * cols + j;
      const real D = c[k] * dN[k] + c[iS * cols + j] * dS[k] + c[k] * dW[k] + c[i * cols + jE] * dE[k];
      J[k] = J[k] + (real)0.25 * lam * D;
    }
  }
  free(c);
  free(dE);
  free(dN);
  free(dS);
  free(dW);
}
