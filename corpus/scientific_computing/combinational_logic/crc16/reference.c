#include <stdint.h>

void HPCAB_KERNEL(crc16)(uint16_t *restrict crc, const uint8_t *restrict messages, const int64_t L,
                         const int64_t N, uint8_t *restrict workspace,
                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    uint16_t c = 0xFFFF;
    for (int64_t b = 0; b < L; b++) {
      c ^= (uint16_t)(messages[i * L + b] << 8);
      for (int bit = 0; bit < 8; bit++)
        c = (c & 0x8000) ? (uint16_t)((c << 1) ^ 0x1021) : (uint16_t)(c << 1);
    }
    crc[i] = c;
  }
}
