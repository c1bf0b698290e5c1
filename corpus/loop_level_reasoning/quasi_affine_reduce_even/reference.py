import numpy as np


def quasi_affine_reduce_even(a, out, N):
    """out[0] = sum of the even-indexed elements a[0], a[2], ..."""
    out[0] = np.sum(a[0::2])
