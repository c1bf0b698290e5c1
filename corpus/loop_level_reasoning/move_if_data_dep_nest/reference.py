import numpy as np


def move_if_data_dep_nest(cond, out, src, N):
    """Rows i with cond[i] > 0 get out[i, :] = 2 * src[i, :]; the other rows are left alone."""
    for i in range(N):
        if cond[i] > 0:
            out[i, :] = src[i, :] * 2
