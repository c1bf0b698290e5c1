import numpy as np


def wavefront2d(a, N):
    """In-place sweep a[i, j] = 0.25 * (a[i, j] + a[i-1, j] + a[i, j-1] + a[i-1, j-1]), i, j >= 1."""
    f = a.reshape(N * N)  # a view: cell (i, j) is f[i*N + j]
    st = N - 1  # along an anti-diagonal i + j = d the flat index i*(N-1) + d steps by N-1
    for d in range(2, 2 * N - 1):  # each anti-diagonal only reads earlier ones
        s = max(1, d - N + 1) * st + d
        e = min(N - 1, d - 1) * st + d + 1
        f[s:e:st] = 0.25 * (f[s:e:st] + f[s - N:e - N:st] + f[s - 1:e - 1:st]
                            + f[s - N - 1:e - N - 1:st])
