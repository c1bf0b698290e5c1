import numpy as np


def tsvc_2_s4117(a, b, c, d, N):
    """a[i] = b[i] + c[i // 2] * d[i]."""
    a[:] = b + c[np.arange(N) // 2] * d
