import numpy as np


def quasi_affine_mod_k_stripe(a, b, c, K, N):
    """a[i] = 2 * b[i] on every K-th index (i % K == 0), a[i] = c[i] elsewhere."""
    a[:] = c
    a[::K] = b[::K] * 2
