import numpy as np


def tsvc_2_s451(a, b, c, N):
    """a = sin(b) + cos(c)."""
    a[:] = np.sin(b) + np.cos(c)
