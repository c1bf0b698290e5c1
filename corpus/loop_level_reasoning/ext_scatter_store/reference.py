import numpy as np


def ext_scatter_store(dst, idx, src, N, scale):
    """dst[idx[i]] = src[i] * scale (idx is a permutation)."""
    dst[idx] = src * scale
