import numpy as np


def tsvc_2_s1161(a, b, c, d, e, N):
    """For i < N-1: where c < 0, b = a + d*d; elsewhere a = c + d*e."""
    n = N - 1
    neg = c[:n] < 0
    b[:n] = np.where(neg, a[:n] + d[:n] * d[:n], b[:n])
    a[:n] = np.where(neg, a[:n], c[:n] + d[:n] * e[:n])
