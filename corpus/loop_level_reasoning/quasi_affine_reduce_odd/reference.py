import numpy as np


def quasi_affine_reduce_odd(a, out, N):
    """out[0] = sum of the odd-indexed elements a[1], a[3], ..."""
    out[0] = np.sum(a[1::2])
