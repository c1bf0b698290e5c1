import numpy as np


def wf_diff_skew(a, N):
    """In-place sweep a[i, j] = 0.25 * (a[i, j] + a[i-1, j] + a[i-1, j+1] + a[i, j-1]), 1 <= j <= N-2."""
    f = a.reshape(N * N)  # a view: cell (i, j) is f[i*N + j]
    st = N - 2  # along a line 2i + j = t the flat index i*(N-2) + t steps by N-2
    for t in range(3, 3 * N - 3):  # each line 2i + j = t only reads earlier ones
        s = max(1, (t - N + 3) // 2) * st + t
        e = min(N - 1, (t - 1) // 2) * st + t + 1
        f[s:e:st] = 0.25 * (f[s:e:st] + f[s - N:e - N:st] + f[s - N + 1:e - N + 1:st]
                            + f[s - 1:e - 1:st])
