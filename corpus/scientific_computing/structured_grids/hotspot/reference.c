#include <stdint.h>

static void hotspot_step(const real *restrict src, real *restrict dst,
                              const real *restrict power, const int64_t N, const real amb,
                              const real cpow, const real cx, const real cy,
                              const real cz) {
  for (int64_t i = 0; i < N; i++) {
    const int64_t in = i > 0 ? i - 1 : 0;
    const int64_t is = i < N - 1 ? i + 1 : N - 1;
    for (int64_t j = 0; j < N; j++) {
      const int64_t jw = j > 0 ? j - 1 : 0;
      const int64_t je = j < N - 1 ? j + 1 : N - 1;
      const real t = src[i * N + j];
      dst[i * N + j] = t + cpow * power[i * N + j] +
                       cy * (src[in * N + j] + src[is * N + j] - (real)2.0 * t) +
                       cx * (src[i * N + jw] + src[i * N + je] - (real)2.0 * t) + cz * (amb - t);
    }
  }
}

void HPCAB_KERNEL(hotspot)(real *restrict buf, const real *restrict power, real *restrict temp,
                           const int64_t N, const real amb, const real cpow, const real cx,
                           const real cy, const real cz, const int64_t niter,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t it = 0; it < niter; it++) {
    if (it % 2 == 0)
      hotspot_step(temp, buf, power, N, amb, cpow, cx, cy, cz);
    else
      hotspot_step(buf, temp, power, N, amb, cpow, cx, cy, cz);
  }
}
