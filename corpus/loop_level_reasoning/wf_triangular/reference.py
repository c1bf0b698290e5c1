import numpy as np


def wf_triangular(a, N):
    """In-place sweep a[i, j] = 0.5 * a[i, j] + 0.25 * (a[i-1, j] + a[i, j-1]) for 1 <= i <= j."""
    f = a.reshape(N * N)  # a view: cell (i, j) is f[i*N + j]
    st = N - 1  # along an anti-diagonal i + j = d the flat index i*(N-1) + d steps by N-1
    for d in range(2, 2 * N - 1):  # each anti-diagonal only reads earlier ones
        s = max(1, d - N + 1) * st + d
        e = (d // 2) * st + d + 1  # j >= i means i <= d/2
        f[s:e:st] = 0.5 * f[s:e:st] + 0.25 * (f[s - N:e - N:st] + f[s - 1:e - 1:st])
