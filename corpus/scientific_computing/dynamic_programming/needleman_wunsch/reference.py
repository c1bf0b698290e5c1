import numpy as np


def needleman_wunsch(a, b, score, sub, N, penalty):
    """Global alignment DP over anti-diagonals i + j = d, each one a vector of independent cells."""
    n1 = N + 1
    s = score.reshape(-1)
    subf = sub.reshape(-1).astype(np.int32)
    pen = np.int32(penalty)
    score[:, 0] = -np.arange(n1, dtype=np.int32) * pen
    score[0, :] = -np.arange(n1, dtype=np.int32) * pen
    for d in range(2, 2 * N + 1):
        i = np.arange(max(1, d - N), min(N, d - 1) + 1)
        j = d - i
        p = i * n1 + j
        match = s[p - n1 - 1] + subf[a[i - 1] * 4 + b[j - 1]]
        s[p] = np.maximum(np.maximum(match, s[p - 1] - pen), s[p - n1] - pen)
