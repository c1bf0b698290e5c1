import numpy as np


def tsvc_2_s424(a, flat, N, vl):
    """flat[i+vl+1] = flat[i] + a[i] for i < N-1 in order, so writes feed reads vl+1 iterations later."""
    d = vl + 1  # iterations lo..lo+d-1 are independent of each other
    for lo in range(0, N - 1, d):
        hi = min(lo + d, N - 1)
        flat[lo + d:hi + d] = flat[lo:hi] + a[lo:hi]
