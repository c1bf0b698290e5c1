#include <stdint.h>

void HPCAB_KERNEL(comet_int4_gemm)(const int8_t *restrict codes_left,
                                   const int8_t *restrict codes_right, int32_t *restrict out,
                                   const int64_t num_field, const int64_t num_vector,
                                   uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < num_vector; i++)
    for (int64_t j = 0; j < num_vector; j++) {
      const int8_t *li = codes_left + i * num_field;
      const int8_t *rj = codes_right + j * num_field;
      int32_t t00 = 0, t01 = 0, t10 = 0, t11 = 0;
      for (int64_t f = 0; f < num_field; f++) {
        const int32_t l1 = (li[f] & 1) + ((li[f] >> 1) & 1), l0 = 2 - l1;
        const int32_t r1 = (rj[f] & 1) + ((rj[f] >> 1) & 1), r0 = 2 - r1;
        t00 += l0 * r0;
        t01 += l0 * r1;
        t10 += l1 * r0;
        t11 += l1 * r1;
      }
      int32_t *o = out + (i * num_vector + j) * 4;
      o[0] = t00;
      o[1] = t01;
      o[2] = t10;
      o[3] = t11;
    }
}
