import numpy as np


def s353_gather_reduction_unroll(a, b, ip, N):
    """b[0] = sum of a[ip[i]] over every i (the 7 accumulators are one reassociation of it)."""
    b[0] = np.sum(a[ip])
