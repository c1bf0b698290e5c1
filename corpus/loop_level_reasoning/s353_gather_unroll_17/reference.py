import numpy as np


def s353_gather_unroll_17(a, b, ip, N):
    """b = a[ip] + 1."""
    b[:] = a[ip] + 1
