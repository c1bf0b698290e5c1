import numpy as np


def nqueens(board, count, N):
    """Count non-attacking placements avoiding board == 0, by the column of the row-0 queen."""
    full = (1 << N) - 1
    bit = np.int64(1) << np.arange(N, dtype=np.int64)
    allowed = [int(np.sum(bit[board[r] != 0])) for r in range(N)]
    # every partial placement of rows 0..r at once: occupied columns, both diagonals, row-0 column
    first = np.flatnonzero(board[0] != 0).astype(np.int64)
    cols = bit[first]
    ld = (cols << 1) & full
    rd = cols >> 1
    for r in range(1, N):
        free = ~(cols | ld | rd) & allowed[r]
        nxt = [[], [], [], []]
        for c in range(N):
            keep = (free >> c) & 1 == 1
            b = np.int64(1) << c
            nxt[0].append(cols[keep] | b)
            nxt[1].append(((ld[keep] | b) << 1) & full)
            nxt[2].append((rd[keep] | b) >> 1)
            nxt[3].append(first[keep])
        cols, ld, rd, first = (np.concatenate(parts) for parts in nxt)
    count[:] = np.bincount(first, minlength=N)
