import numpy as np


def tsvc_2_s331(a, j, N):
    """j[0] = index of the last negative element of a, or -1 if a has none."""
    neg = np.nonzero(a < 0)[0]
    j[0] = neg[-1] if neg.size > 0 else -1
