import numpy as np


def nussinov(seq, table, N):
    """Nussinov DP in order of increasing span d = j - i, vectorized over i (and over the split k)."""
    table[...] = 0
    t = table.reshape(-1)
    s = seq.astype(np.int32)
    for d in range(1, N):
        i = np.arange(0, N - d)
        j = i + d
        best = np.maximum(t[i * N + j - 1], t[(i + 1) * N + j])
        diag = t[(i + 1) * N + j - 1]
        if d > 1:
            diag = diag + ((s[i] + s[j]) == 3).astype(np.int32)
        best = np.maximum(best, diag)
        if d > 1:
            m = np.arange(1, d)[:, None]  # k = i + m, 0 < m < d
            split = t[i[None, :] * N + i[None, :] + m] + t[(i[None, :] + m + 1) * N + j[None, :]]
            best = np.maximum(best, split.max(axis=0))
        t[i * N + j] = best
