import numpy as np


def tsvc_2_s1115(aa, bb, cc, N):
    """aa = aa * cc^T + bb, elementwise (cc read transposed)."""
    aa[:] = aa * cc.T + bb
