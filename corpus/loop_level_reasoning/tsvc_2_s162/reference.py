import numpy as np


def tsvc_2_s162(a, b, c, N, k):
    """If k > 0: a[i] = a[i+k] + b[i]*c[i] for i < N-k, reading the old a[i+k]."""
    if k > 0:
        old = a[k:].copy()  # the loop reads a[i+k] before it is overwritten
        a[:N - k] = old + b[:N - k] * c[:N - k]
