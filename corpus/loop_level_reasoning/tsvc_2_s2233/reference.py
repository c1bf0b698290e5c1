import numpy as np


def tsvc_2_s2233(aa, bb, cc, N):
    """Running sums of cc down columns 1..N-1 into aa and into bb (rows 1..N-1)."""
    for j in range(1, N):
        aa[j, 1:] = aa[j - 1, 1:] + cc[j, 1:]
        bb[j, 1:] = bb[j - 1, 1:] + cc[j, 1:]
