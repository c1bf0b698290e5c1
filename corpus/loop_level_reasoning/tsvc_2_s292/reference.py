import numpy as np


def tsvc_2_s292(a, b, N):
    """a[i] = (b[i] + b[i-1] + b[i-2]) * 0.333 with indices taken modulo N."""
    a[:] = (b + np.roll(b, 1) + np.roll(b, 2)) * 0.333
