import numpy as np


def fission_scatter_2body(a, b, c, e, idx, N):
    """b[idx[i]] = 2*a[i], e[idx[i]] = c[i] + 1 (idx is a permutation)."""
    b[idx] = a * 2
    e[idx] = c + 1
