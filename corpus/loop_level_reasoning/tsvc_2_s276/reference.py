import numpy as np


def tsvc_2_s276(a, b, c, d, N):
    """a[i] += b[i] * c[i] for i + 1 < N // 2, and a[i] += b[i] * d[i] for the remaining i."""
    k = N // 2 - 1
    a[:k] += b[:k] * c[:k]
    a[k:] += b[k:] * d[k:]
