import numpy as np


def tsvc_2_s212(a, b, c, d, N):
    """For i < N-1: a[i] *= c[i]; b[i] += a[i+1] * d[i], where a[i+1] is still the old value."""
    b[:N - 1] += a[1:] * d[:N - 1]  # uses a before it is scaled
    a[:N - 1] *= c[:N - 1]
