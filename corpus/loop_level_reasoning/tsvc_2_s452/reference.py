import numpy as np


def tsvc_2_s452(a, b, c, N):
    """a[i] = b[i] + c[i] * (i+1), with i+1 converted to the run precision."""
    a[:] = b + c * np.arange(1, N + 1).astype(b.dtype)
