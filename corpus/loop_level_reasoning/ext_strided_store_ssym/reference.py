import numpy as np


def ext_strided_store_ssym(dst, src, N, SSYM, scale):
    """dst[i*SSYM] = src[i] * scale; the other elements of dst are left unchanged."""
    dst[0:SSYM * N:SSYM] = src * scale
