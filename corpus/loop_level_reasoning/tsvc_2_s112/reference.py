import numpy as np


def tsvc_2_s112(a, b, N):
    """a[i+1] = a[i] + b[i] for i = N-2 down to 0, i.e. a[1:] = (original a[:-1]) + b[:-1]."""
    old = a[:N - 1].copy()
    a[1:] = old + b[:N - 1]
