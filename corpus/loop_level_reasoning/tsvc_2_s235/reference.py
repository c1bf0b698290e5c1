import numpy as np


def tsvc_2_s235(a, aa, b, bb, c, N):
    """a += b * c, then running sums down each column: aa[j, i] = aa[j-1, i] + bb[j, i] * a[i]."""
    a += b * c
    for j in range(1, N):
        aa[j] = aa[j - 1] + bb[j] * a
