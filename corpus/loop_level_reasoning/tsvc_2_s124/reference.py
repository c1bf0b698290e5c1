import numpy as np


def tsvc_2_s124(a, b, c, d, e, N):
    """a = (b where b > 0, else c) + d*e."""
    a[:] = np.where(b > 0, b, c) + d * e
