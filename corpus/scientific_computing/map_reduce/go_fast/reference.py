import numpy as np


def go_fast(a, out, N):
    """out = a + sum_i tanh(a[i, i])."""
    trace = np.tanh(a[0, 0])
    for i in range(1, N):
        trace += np.tanh(a[i, i])
    out[:] = a + trace
