import numpy as np


def tsvc_2_s116(a, N):
    """a[m] = a[m+1] * a[m] (original values) for m < 5*((N-1)//5); the rest of a is unchanged."""
    m = 5 * ((N - 1) // 5)
    nxt = a[1:m + 1].copy()
    a[:m] *= nxt
