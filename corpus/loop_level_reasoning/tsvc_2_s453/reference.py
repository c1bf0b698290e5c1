import numpy as np


def tsvc_2_s453(a, b, N):
    """a[i] = s_i * b[i] with s_i the running sum of i+1 twos (accumulated in the run precision)."""
    s = np.cumsum(np.full(N, 2.0, dtype=b.dtype))
    a[:] = s * b
