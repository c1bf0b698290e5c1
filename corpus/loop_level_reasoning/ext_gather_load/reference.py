import numpy as np


def ext_gather_load(dst, idx, src, N, scale):
    """dst[i] = src[idx[i]] * scale."""
    dst[:] = src[idx] * scale
