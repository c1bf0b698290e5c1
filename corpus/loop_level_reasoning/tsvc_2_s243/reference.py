import numpy as np


def tsvc_2_s243(a, b, c, d, e, N):
    """For i < N-1: t = b + c*d; b = t + d*e; a[i] = b[i] + (old a[i+1]) * d[i]."""
    a_next = a[1:].copy()  # the old a[i+1]
    t = b[:N - 1] + c[:N - 1] * d[:N - 1]
    b[:N - 1] = t + d[:N - 1] * e[:N - 1]
    a[:N - 1] = b[:N - 1] + a_next * d[:N - 1]
