import numpy as np


def ext_strided_load_ssym(dst, src, N, SSYM, scale):
    """dst[i] = src[i*SSYM] * scale."""
    dst[:] = src[0:SSYM * N:SSYM] * scale
