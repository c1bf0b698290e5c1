import numpy as np


def tsvc_2_s254(a, b, N):
    """a[i] = (b[i] + b[i-1]) * 0.5 with b[-1] = b[N-1] (a cyclic shift)."""
    a[:] = (b + np.roll(b, 1)) * 0.5
