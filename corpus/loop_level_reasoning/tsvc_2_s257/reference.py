import numpy as np


def tsvc_2_s257(a, aa, bb, N):
    """For i >= 1: aa[:, i] = (aa[:, i] - a[i-1]) + bb[:, i]; a[i] = old aa[N-1, i] - a[i-1]."""
    for i in range(1, N):
        prev = a[i - 1]
        a[i] = aa[N - 1, i] - prev  # the value left by the last row j = N-1
        aa[:, i] = (aa[:, i] - prev) + bb[:, i]
