import numpy as np


def quasi_affine_pairwise_sum(a, b, N):
    """b[i] = a[2i] + a[2i+1]."""
    b[:] = a[0::2] + a[1::2]
