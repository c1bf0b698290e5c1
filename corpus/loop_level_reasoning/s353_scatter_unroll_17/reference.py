import numpy as np


def s353_scatter_unroll_17(a, b, ip, N):
    """b[ip[i]] = a[i] + 1 (ip is a permutation)."""
    b[ip] = a + 1
