import numpy as np


def tsvc_2_s421(a, xx, N):
    """xx[i] = xx[i+1] + a[i] for i < N-1, each reading the old xx[i+1]."""
    old = xx[1:].copy()  # every read sees the value before the loop
    xx[:N - 1] = old + a[:N - 1]
