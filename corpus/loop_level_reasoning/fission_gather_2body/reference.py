import numpy as np


def fission_gather_2body(a, b, c, e, idx, N):
    """b = a[idx], e = c[idx]."""
    b[:] = a[idx]
    e[:] = c[idx]
