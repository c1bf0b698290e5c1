import numpy as np


def tsvc_2_s319(a, b, c, d, e, sum, N):
    """a = c + d, b = c + e, and sum[0] = total of all elements of a and b."""
    a[:] = c + d
    b[:] = c + e
    sum[0] = np.sum(a) + np.sum(b)
