import numpy as np


def safety_column_stencil(a, bb, N):
    """a[i, :] = a[i-1, :] + bb[i, :] for i = 1..N-1, in order."""
    for i in range(1, N):
        a[i, :] = a[i - 1, :] + bb[i, :]
