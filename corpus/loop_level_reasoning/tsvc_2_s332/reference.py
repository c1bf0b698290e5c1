import numpy as np


def tsvc_2_s332(a, value, N, t):
    """value[0] = the first a[i] > t, or -1 if none (TSVC returns only the value)."""
    hits = np.nonzero(a > t)[0]
    if hits.size > 0:
        value[0] = a[hits[0]]
    else:
        value[0] = -1.0
