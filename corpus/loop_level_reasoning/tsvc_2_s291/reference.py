import numpy as np


def tsvc_2_s291(a, b, N):
    """a[i] = (b[i] + b[i-1]) * 0.5, with b[i-1] taken as b[N-1] at i = 0."""
    a[0] = (b[0] + b[N - 1]) * 0.5
    a[1:] = (b[1:] + b[:N - 1]) * 0.5
