import numpy as np


def tsvc_2_s315(a, index, x, N):
    """x[0] = largest element of a, index[0] = the index of its first occurrence."""
    k = np.argmax(a)
    x[0] = a[k]
    index[0] = k
