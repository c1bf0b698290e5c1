import numpy as np


def ext_modular_wrap(a, b, K, N):
    """a[(i + K) % N] = b[i]: b rotated right by K."""
    s = K % N
    a[s:] = b[:N - s]
    a[:s] = b[N - s:]
