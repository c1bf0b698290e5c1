import numpy as np


def ext_strided_load_2(dst, src, N, scale):
    """dst[i] = src[2*i] * scale."""
    dst[:] = src[0:2 * N:2] * scale
