import numpy as np


def smith_waterman(H, a, b, sub, N, gap):
    """Local alignment DP over anti-diagonals i + j = d, each one a vector of independent cells."""
    n1 = N + 1
    h = H.reshape(-1)
    subf = sub.reshape(-1).astype(np.int32)
    g = np.int32(gap)
    H[:, 0] = 0
    H[0, :] = 0
    for d in range(2, 2 * N + 1):
        i = np.arange(max(1, d - N), min(N, d - 1) + 1)
        j = d - i
        p = i * n1 + j
        best = np.maximum(h[p - n1 - 1] + subf[a[i - 1] * 4 + b[j - 1]], 0)
        best = np.maximum(best, h[p - n1] - g)
        h[p] = np.maximum(best, h[p - 1] - g)
