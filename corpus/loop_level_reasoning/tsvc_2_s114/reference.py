import numpy as np


def tsvc_2_s114(aa, bb, N):
    """aa[i, j] = aa[j, i] + bb[i, j] for j < i: lower triangle from the transposed upper triangle."""
    for i in range(1, N):
        aa[i, :i] = aa[:i, i] + bb[i, :i]
