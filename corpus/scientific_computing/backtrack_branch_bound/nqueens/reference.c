#include <stdint.h>

/* solutions completing rows row..N-1 given the attacked columns and diagonals */
static int64_t place(const uint8_t *restrict board, const int64_t N, const int64_t row,
                     const uint64_t cols, const uint64_t ld, const uint64_t rd) {
  if (row == N) return 1;
  const uint64_t full = (UINT64_C(1) << N) - 1;
  uint64_t free = ~(cols | ld | rd) & full;
  int64_t total = 0;
  while (free) {
    const uint64_t b = free & (~free + 1);
    free ^= b;
    const int c = __builtin_ctzll(b);
    if (board[row * N + c] == 0) continue;
    total += place(board, N, row + 1, cols | b, ((ld | b) << 1) & full, (rd | b) >> 1);
  }
  return total;
}

void HPCAB_KERNEL(nqueens)(const uint8_t *restrict board, int64_t *restrict count, const int64_t N,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const uint64_t full = (UINT64_C(1) << N) - 1;
  for (int64_t c = 0; c < N; c++) {
    const uint64_t b = UINT64_C(1) << c;
    count[c] = board[c] == 0 ? 0 : place(board, N, 1, b, (b << 1) & full, b >> 1);
  }
}
