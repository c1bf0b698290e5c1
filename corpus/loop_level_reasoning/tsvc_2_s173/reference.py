import numpy as np


def tsvc_2_s173(a, b, N):
    """a[i + N/2] = a[i] + b[i] for i < N/2 (the second half of a from its first half)."""
    k = N // 2
    a[k:2 * k] = a[:k] + b[:k]
