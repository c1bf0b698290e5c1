import numpy as np


def cond_reduce_sum(a, out, N):
    """out[0] = the sum of the elements of a that are > 0."""
    out[0] = np.sum(a[a > 0])
