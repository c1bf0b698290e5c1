import numpy as np


def tsvc_2_s481(a, b, c, d, N):
    """a[i] += b[i]*c[i] for every i before the first i with d[i] < 0 (all i if there is none)."""
    neg = np.nonzero(d < 0)[0]
    n = neg[0] if neg.size > 0 else N
    a[:n] += b[:n] * c[:n]
