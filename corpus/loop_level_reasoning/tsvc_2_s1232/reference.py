import numpy as np


def tsvc_2_s1232(aa, bb, cc, N):
    """aa[i, j] = bb[i, j] + cc[i, j] for j <= i (lower triangle); the rest of aa is unchanged."""
    for i in range(N):
        aa[i, :i + 1] = bb[i, :i + 1] + cc[i, :i + 1]
