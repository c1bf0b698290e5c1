import numpy as np


def tsvc_2_s1119(aa, bb, N):
    """Running sum down each column: aa[i, j] = aa[i-1, j] + bb[i, j] for i = 1..N-1."""
    for i in range(1, N):
        aa[i] = aa[i - 1] + bb[i]
