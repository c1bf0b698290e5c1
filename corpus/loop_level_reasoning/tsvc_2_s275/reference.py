import numpy as np


def tsvc_2_s275(aa, bb, cc, N):
    """In every column i with aa[0, i] > 0: aa[j, i] = aa[j-1, i] + bb[j, i] * cc[j, i] for j = 1..N-1."""
    cols = aa[0] > 0
    for j in range(1, N):
        aa[j] = np.where(cols, aa[j - 1] + bb[j] * cc[j], aa[j])
