import numpy as np


def tsvc_2_s2275(a, aa, b, bb, c, cc, d, N):
    """aa += bb * cc elementwise (N x N) and a = b + c * d (length N)."""
    aa += bb * cc
    a[:] = b + c * d
