import numpy as np


def tsvc_2_s256(a, aa, bb, d, N):
    """a[j] = 1 - a[j-1] for j >= 1, then aa[j, :] = a[j] + bb[j, :] * d[j] for rows j >= 1."""
    for j in range(1, N):
        a[j] = 1 - a[j - 1]
        aa[j] = a[j] + bb[j] * d[j]
