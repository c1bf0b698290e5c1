import numpy as np


def ext_strided_store_2(dst, src, N, scale):
    """dst[2*i] = src[i] * scale; the odd elements of dst are left unchanged."""
    dst[0:2 * N:2] = src * scale
