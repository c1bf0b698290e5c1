import numpy as np


def wavefront_2d(aa, N):
    """In-place sweep aa[i, j] = (aa[i, j-1] + aa[i-1, j]) / 2 for i, j >= 1, by anti-diagonals."""
    f = aa.reshape(N * N)  # cell (i, j) is f[i*N + j]
    st = N - 1  # moving along an anti-diagonal i + j = d steps the flat index by N - 1
    for d in range(2, 2 * N - 1):  # a diagonal reads only the two before it
        lo = max(1, d - N + 1)
        hi = min(N - 1, d - 1)
        s = lo * N + (d - lo)
        e = hi * N + (d - hi) + 1
        f[s:e:st] = (f[s - 1:e - 1:st] + f[s - N:e - N:st]) / 2
