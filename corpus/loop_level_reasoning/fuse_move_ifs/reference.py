import numpy as np


def fuse_move_ifs(a, b, cond, src, K, N):
    """a[i, :] = 2 * src[i, :] in rows with cond[i] > 0; then, if K > 0, b += src + 1."""
    for i in range(N):
        if cond[i] > 0:
            a[i, :] = src[i, :] * 2
    if K > 0:
        b += src + 1
