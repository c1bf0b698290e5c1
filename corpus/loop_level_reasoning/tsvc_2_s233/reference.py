import numpy as np


def tsvc_2_s233(aa, bb, cc, N):
    """Running sums of cc: down columns 1..N-1 into aa, along rows 1..N-1 into bb."""
    for j in range(1, N):  # aa: running sum down columns 1..N-1
        aa[j, 1:] = aa[j - 1, 1:] + cc[j, 1:]
    for i in range(1, N):  # bb: running sum along rows 1..N-1
        bb[1:, i] = bb[1:, i - 1] + cc[1:, i]
