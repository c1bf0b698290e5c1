import numpy as np


def tsvc_2_s2111(aa, N):
    """Wavefront: aa[j, i] = (aa[j, i-1] + aa[j-1, i]) / 2 for j, i >= 1, in row-major order."""
    r = aa.dtype.type(2)  # the divisor in the run precision
    for j in range(1, N):
        for i in range(1, N):
            aa[j, i] = (aa[j, i - 1] + aa[j - 1, i]) / r
