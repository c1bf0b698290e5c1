import numpy as np


def go_fast(a, out, N):
    """out = a + sum_i tanh(a[i, i])."""
    trace = np.sum(np.tanh(np.diagonal(a)))
    out[:] = a + trace
