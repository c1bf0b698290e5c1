import numpy as np


def disjoint_halves_gather(a, c, N):
    """a[i] += a[i + N//2] * c[i] for i < N//2; the read half is never written."""
    h = N // 2
    a[:h] = a[:h] + a[h:2 * h] * c[:h]
