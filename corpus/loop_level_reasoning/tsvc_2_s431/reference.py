import numpy as np


def tsvc_2_s431(a, b, N, k1, k2):
    """a[i] = a[i+k] + b[i] with k = 2*k1 - k2 (0 here, so a += b)."""
    k = 2 * k1 - k2
    a[:N] = a[k:k + N] + b
