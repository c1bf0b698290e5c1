import numpy as np


def tsvc_2_s332(a, index, value, N, t):
    """index[0], value[0] = position and value of the first a[i] > t, or -2 and -1 if none."""
    hits = np.nonzero(a > t)[0]
    if hits.size > 0:
        index[0] = hits[0]
        value[0] = a[hits[0]]
    else:
        index[0] = -2
        value[0] = -1.0
