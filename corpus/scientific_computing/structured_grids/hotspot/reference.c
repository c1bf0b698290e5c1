#include <stdint.h>

static void hotspot_step_fp64(const double *restrict src, double *restrict dst,
                              const double *restrict power, const int64_t N, const double amb,
                              const double cpow, const double cx, const double cy,
                              const double cz) {
  for (int64_t i = 0; i < N; i++) {
    const int64_t in = i > 0 ? i - 1 : 0;
    const int64_t is = i < N - 1 ? i + 1 : N - 1;
    for (int64_t j = 0; j < N; j++) {
      const int64_t jw = j > 0 ? j - 1 : 0;
      const int64_t je = j < N - 1 ? j + 1 : N - 1;
      const double t = src[i * N + j];
      dst[i * N + j] = t + cpow * power[i * N + j] +
                       cy * (src[in * N + j] + src[is * N + j] - 2.0 * t) +
                       cx * (src[i * N + jw] + src[i * N + je] - 2.0 * t) + cz * (amb - t);
    }
  }
}

void hotspot_fp64(double *restrict buf, const double *restrict power, double *restrict temp,
                  const int64_t N, const double amb, const double cpow, const double cx,
                  const double cy, const double cz, const int64_t niter,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t it = 0; it < niter; it++) {
    if (it % 2 == 0)
      hotspot_step_fp64(temp, buf, power, N, amb, cpow, cx, cy, cz);
    else
      hotspot_step_fp64(buf, temp, power, N, amb, cpow, cx, cy, cz);
  }
}

static void hotspot_step_fp32(const float *restrict src, float *restrict dst,
                              const float *restrict power, const int64_t N, const float amb,
                              const float cpow, const float cx, const float cy,
                              const float cz) {
  for (int64_t i = 0; i < N; i++) {
    const int64_t in = i > 0 ? i - 1 : 0;
    const int64_t is = i < N - 1 ? i + 1 : N - 1;
    for (int64_t j = 0; j < N; j++) {
      const int64_t jw = j > 0 ? j - 1 : 0;
      const int64_t je = j < N - 1 ? j + 1 : N - 1;
      const float t = src[i * N + j];
      dst[i * N + j] = t + cpow * power[i * N + j] +
                       cy * (src[in * N + j] + src[is * N + j] - 2.0f * t) +
                       cx * (src[i * N + jw] + src[i * N + je] - 2.0f * t) + cz * (amb - t);
    }
  }
}

void hotspot_fp32(float *restrict buf, const float *restrict power, float *restrict temp,
                  const int64_t N, const float amb, const float cpow, const float cx,
                  const float cy, const float cz, const int64_t niter,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t it = 0; it < niter; it++) {
    if (it % 2 == 0)
      hotspot_step_fp32(temp, buf, power, N, amb, cpow, cx, cy, cz);
    else
      hotspot_step_fp32(buf, temp, power, N, amb, cpow, cx, cy, cz);
  }
}
