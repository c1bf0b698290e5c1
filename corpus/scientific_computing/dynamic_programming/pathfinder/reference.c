#include <stdint.h>

void HPCAB_KERNEL(pathfinder)(int32_t *restrict result, const int32_t *restrict wall,
                              const int64_t cols, const int64_t rows, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < cols; j++) result[j] = wall[j];
  for (int64_t t = 1; t < rows; t++) {
    int32_t prev = result[0]; /* the previous row's value at j-1 */
    for (int64_t j = 0; j < cols; j++) {
      const int32_t here = result[j];
      int32_t m = here;
      if (j > 0 && prev < m) m = prev;
      if (j < cols - 1 && result[j + 1] < m) m = result[j + 1];
      prev = here;
      result[j] = wall[t * cols + j] + m;
    }
  }
}
