#include <stdint.h>

/* centers holds the running centres; after each assignment the non-empty clusters' centres
   are reset and their points summed into them in point order, then divided by counts. */
void HPCAB_KERNEL(kmeans)(real *restrict centers, int64_t *restrict counts,
                          const real *restrict features, int32_t *restrict membership,
                          const int64_t dim, const int64_t nclusters, const int64_t niter,
                          const int64_t npoints, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t k = 0; k < nclusters * dim; k++) centers[k] = features[k];
  for (int64_t it = 0; it < niter; it++) {
    for (int64_t k = 0; k < nclusters; k++) counts[k] = 0;
    for (int64_t p = 0; p < npoints; p++) {
      int32_t best = 0;
      real best_d = (real)0.0;
      for (int64_t k = 0; k < nclusters; k++) {
        real d2 = (real)0.0;
        for (int64_t d = 0; d < dim; d++) {
          const real diff = features[p * dim + d] - centers[k * dim + d];
          d2 += diff * diff;
        }
        if (k == 0 || d2 < best_d) {
          best_d = d2;
          best = (int32_t)k;
        }
      }
      membership[p] = best;
      counts[best]++;
    }
    for (int64_t k = 0; k < nclusters; k++)
      if (counts[k] > 0) /* an empty cluster keeps its centre */
        for (int64_t d = 0; d < dim; d++) centers[k * dim + d] = (real)0.0;
    for (int64_t p = 0; p < npoints; p++)
      for (int64_t d = 0; d < dim; d++) centers[membership[p] * dim + d] += features[p * dim + d];
    for (int64_t k = 0; k < nclusters; k++)
      if (counts[k] > 0)
        for (int64_t d = 0; d < dim; d++) centers[k * dim + d] /= (real)counts[k];
  }
}
