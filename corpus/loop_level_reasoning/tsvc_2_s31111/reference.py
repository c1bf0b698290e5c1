import numpy as np


def tsvc_2_s31111(a, sum, N):
    """sum[0] = sum over groups of four consecutive elements of a (the last group may be shorter) of the group sums."""
    m = N - N % 4
    groups = ((a[0:m:4] + a[1:m:4]) + a[2:m:4]) + a[3:m:4]
    sum[0] = np.sum(groups) + np.sum(a[m:])
