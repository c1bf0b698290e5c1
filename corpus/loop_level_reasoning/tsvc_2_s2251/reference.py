import numpy as np


def tsvc_2_s2251(a, b, c, d, e, N):
    """a[0] = 0, a[i] = (b[i-1] + c[i-1]) * e[i] with the old b, then b = a + d."""
    s = b[:N - 1] + c[:N - 1]  # the carried scalar, from the old b
    a[0] = 0.0
    a[1:] = s * e[1:]
    b[:] = a + d
