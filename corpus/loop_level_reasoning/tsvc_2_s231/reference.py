import numpy as np


def tsvc_2_s231(aa, bb, N):
    """Running sum down each column: aa[j, i] = aa[j-1, i] + bb[j, i] for j = 1..N-1."""
    for j in range(1, N):
        aa[j] = aa[j - 1] + bb[j]
