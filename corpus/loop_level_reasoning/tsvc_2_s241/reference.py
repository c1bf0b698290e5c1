import numpy as np


def tsvc_2_s241(a, b, c, d, N):
    """For i < N-1: a[i] = b[i]*c[i]*d[i], then b[i] = a[i] * (old a[i+1]) * d[i]."""
    a_next = a[1:].copy()  # the old a[i+1], read before it is overwritten
    a[:N - 1] = b[:N - 1] * c[:N - 1] * d[:N - 1]
    b[:N - 1] = a[:N - 1] * a_next * d[:N - 1]
