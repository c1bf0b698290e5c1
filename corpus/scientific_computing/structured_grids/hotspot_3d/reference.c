#include <stdint.h>

static void hotspot_3d_step(const real *restrict src, real *restrict dst,
                                 const real *restrict power, const int64_t N,
                                 const real amb, const real camb, const real cpow,
                                 const real cx, const real cy, const real cz) {
  const int64_t S = N * N;
  for (int64_t z = 0; z < N; z++) {
    const int64_t zb = z > 0 ? z - 1 : 0;
    const int64_t za = z < N - 1 ? z + 1 : N - 1;
    for (int64_t y = 0; y < N; y++) {
      const int64_t yn = y > 0 ? y - 1 : 0;
      const int64_t ys = y < N - 1 ? y + 1 : N - 1;
      for (int64_t x = 0; x < N; x++) {
        const int64_t xw = x > 0 ? x - 1 : 0;
        const int64_t xe = x < N - 1 ? x + 1 : N - 1;
        const int64_t c = z * S + y * N + x;
        const real t = src[c];
        dst[c] = t + cx * (src[z * S + y * N + xw] + src[z * S + y * N + xe] - (real)2.0 * t) +
                 cy * (src[z * S + yn * N + x] + src[z * S + ys * N + x] - (real)2.0 * t) +
                 cz * (src[zb * S + y * N + x] + src[za * S + y * N + x] - (real)2.0 * t) +
                 cpow * power[c] + camb * (amb - t);
      }
    }
  }
}

void HPCAB_KERNEL(hotspot_3d)(real *restrict buf, const real *restrict power, real *restrict temp,
                              const int64_t N, const real amb, const real camb, const real cpow,
                              const real cx, const real cy, const real cz, const int64_t niter,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t it = 0; it < niter; it++) {
    if (it % 2 == 0)
      hotspot_3d_step(temp, buf, power, N, amb, camb, cpow, cx, cy, cz);
    else
      hotspot_3d_step(buf, temp, power, N, amb, camb, cpow, cx, cy, cz);
  }
}
