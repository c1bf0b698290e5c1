import numpy as np


def tsvc_2_s277(a, b, c, d, e, N):
    """For i < N-1 where a[i] < 0: a[i] += c[i]*d[i] if b[i] (as updated by iteration i-1) < 0; b[i+1] = c[i] + d[i]*e[i]."""
    neg = a[:N - 1] < 0
    newb = c[:N - 1] + d[:N - 1] * e[:N - 1]
    # the value of b[i] when iteration i tests it: written by iteration i-1 if a[i-1] < 0
    bi = b[:N - 1].copy()
    bi[1:] = np.where(neg[:-1], newb[:-1], bi[1:])
    upd = neg & (bi < 0)
    a[:N - 1] = np.where(upd, a[:N - 1] + c[:N - 1] * d[:N - 1], a[:N - 1])
    b[1:] = np.where(neg, newb, b[1:])
