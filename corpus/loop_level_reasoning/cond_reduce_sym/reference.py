import numpy as np


def cond_reduce_sym(a, out, N, K):
    """out[0] = the sum of the elements of a that are > K."""
    out[0] = np.sum(a[a > K])
