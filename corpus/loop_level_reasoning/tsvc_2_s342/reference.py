import numpy as np


def tsvc_2_s342(a, b, N):
    """The positive elements of a, in order, are replaced by b[0], b[1], ...; the others are unchanged."""
    pos = a > 0
    a[pos] = b[:np.count_nonzero(pos)]
