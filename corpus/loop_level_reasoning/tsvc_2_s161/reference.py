import numpy as np


def tsvc_2_s161(a, b, c, d, e, N):
    """For i < N-1: if b[i] < 0, c[i+1] = a[i] + d[i]^2, else a[i] = c[i] + d[i]*e[i] (new c)."""
    neg = b[:N - 1] < 0
    c[1:] = np.where(neg, a[:N - 1] + d[:N - 1] * d[:N - 1], c[1:])
    cu = c[:N - 1].copy()  # c[i] as the else branch of iteration i sees it
    a[:N - 1] = np.where(neg, a[:N - 1], cu + d[:N - 1] * e[:N - 1])
