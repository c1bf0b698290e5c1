import numpy as np


def tsvc_2_s131(a, b, N):
    """a[i] = a[i+1] + b[i] for i < N-1, reading the old a[i+1]; a[N-1] is left unchanged."""
    old = a[1:].copy()  # the loop reads a[i+1] before it is overwritten
    a[:N - 1] = old + b[:N - 1]
