import numpy as np


def tsvc_2_s119(aa, bb, N):
    """Running sum along diagonals: aa[i, j] = aa[i-1, j-1] + bb[i, j] for i, j >= 1."""
    for i in range(1, N):
        aa[i, 1:] = aa[i - 1, :N - 1] + bb[i, 1:]
