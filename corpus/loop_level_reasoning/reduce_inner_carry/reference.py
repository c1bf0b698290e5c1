import numpy as np


def reduce_inner_carry(a, out, N):
    """out[i] = sum of row i of a."""
    for i in range(N):
        out[i] = np.sum(a[i])
