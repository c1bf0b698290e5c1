#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

/* Weight index of the edge between node i and its neighbour j at stencil offset d (0..26, not 13;
   offsets (dz, dy, dx) in lexicographic order): forward edges (d > 13) are stored at the node
   under index d - 14, backward ones at the neighbour under the forward index 12 - d. */
static inline int64_t edge_index(const int64_t i, const int64_t j, const int d) {
  return d > 13 ? i * 13 + (d - 14) : j * 13 + (12 - d);
}

static void matvec(const real *restrict weights, const real *restrict diag, const real *restrict v,
                   real *restrict out, const int64_t Z, const int64_t Y, const int64_t X) {
  for (int64_t z = 0; z < Z; z++)
    for (int64_t y = 0; y < Y; y++)
      for (int64_t x = 0; x < X; x++) {
        const int64_t i = (z * Y + y) * X + x;
        real acc = (real)0.0;
        for (int dz = -1; dz <= 1; dz++) {
          if (z + dz < 0 || z + dz >= Z) continue;
          for (int dy = -1; dy <= 1; dy++) {
            if (y + dy < 0 || y + dy >= Y) continue;
            for (int dx = -1; dx <= 1; dx++) {
              if (x + dx < 0 || x + dx >= X) continue;
              const int d = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);
              const int64_t j = ((z + dz) * Y + (y + dy)) * X + (x + dx);
              if (d == 13)
                acc += diag[i] * v[i];
              else
                acc += (-weights[edge_index(i, j, d)]) * v[j];
            }
          }
        }
        out[i] = acc;
      }
}

void HPCAB_KERNEL(minife)(const real *restrict b, const real *restrict weights, real *restrict x,
                          const int64_t max_iter, const int64_t nx, const int64_t ny,
                          const int64_t nz, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t Z = nz + 1, Y = ny + 1, X = nx + 1, n = Z * Y * X;
  real *restrict diag = hpcab_scratch(n, sizeof(real));
  real *restrict r = hpcab_scratch(n, sizeof(real));
  real *restrict p = hpcab_scratch(n, sizeof(real));
  real *restrict ap = hpcab_scratch(n, sizeof(real));
  for (int64_t z = 0; z < Z; z++)
    for (int64_t y = 0; y < Y; y++)
      for (int64_t x0 = 0; x0 < X; x0++) {
        const int64_t i = (z * Y + y) * X + x0;
        real s = (real)0.0;
        for (int dz = -1; dz <= 1; dz++) {
          if (z + dz < 0 || z + dz >= Z) continue;
          for (int dy = -1; dy <= 1; dy++) {
            if (y + dy < 0 || y + dy >= Y) continue;
            for (int dx = -1; dx <= 1; dx++) {
              if (x0 + dx < 0 || x0 + dx >= X) continue;
              const int d = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);
              if (d == 13) continue;
              const int64_t j = ((z + dz) * Y + (y + dy)) * X + (x0 + dx);
              s += weights[edge_index(i, j, d)];
            }
          }
        }
        diag[i] = s + (real)1.0;
      }
  for (int64_t i = 0; i < n; i++) p[i] = x[i];
  matvec(weights, diag, p, ap, Z, Y, X);
  real rtrans = (real)0.0;
  for (int64_t i = 0; i < n; i++) {
    r[i] = b[i] - ap[i];
    rtrans += r[i] * r[i];
  }
  for (int64_t k = 1; k <= max_iter; k++) {
    if (k == 1) {
      for (int64_t i = 0; i < n; i++) p[i] = r[i];
    } else {
      const real oldrtrans = rtrans;
      rtrans = (real)0.0;
      for (int64_t i = 0; i < n; i++) rtrans += r[i] * r[i];
      const real beta = rtrans / oldrtrans;
      for (int64_t i = 0; i < n; i++) p[i] = beta * p[i] + r[i];
    }
    matvec(weights, diag, p, ap, Z, Y, X);
    real pap = (real)0.0;
    for (int64_t i = 0; i < n; i++) pap += ap[i] * p[i];
    const real alpha = rtrans / pap;
    for (int64_t i = 0; i < n; i++) {
      x[i] = x[i] + alpha * p[i];
      r[i] = r[i] + (-alpha) * ap[i];
    }
  }
  free(diag);
  free(r);
  free(p);
  free(ap);
}
