import numpy as np


def tsvc_2_s174(a, b, N):
    """a[i + M] = a[i] + b[i] for i < M, with M = N/2."""
    M = N // 2
    a[M:2 * M] = a[:M] + b[:M]
