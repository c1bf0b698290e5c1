import numpy as np


def tsvc_2_s128(a, b, c, d, N):
    """a[i] = b[2i] - d[i], then b[2i] = a[i] + c[2i], for i < N/2."""
    h = N // 2
    a[:] = b[0:2 * h:2] - d[:h]
    b[0:2 * h:2] = a + c[0:2 * h:2]
