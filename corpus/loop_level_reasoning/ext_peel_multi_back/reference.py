import numpy as np


def ext_peel_multi_back(a, b, N):
    """a = 2*b, then a[N-3] and a[N-2] each incremented by 1 (the two peeled iterations)."""
    a[:] = b * 2
    a[N - 3:N - 1] += 1
