import numpy as np


def tsvc_2_s176(a, b, c, N):
    """a[i] += sum over j < m of b[i+m-j-1] * c[j] for i < m = N/2, accumulated in order of j."""
    m = N // 2
    for j in range(m):
        a[:m] += b[m - j - 1:2 * m - j - 1] * c[j]
