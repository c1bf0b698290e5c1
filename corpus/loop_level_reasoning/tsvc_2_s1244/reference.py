import numpy as np


def tsvc_2_s1244(a, b, c, d, N):
    """For i < N-1: a[i] = b + c*c + b*b + c, then d[i] = a[i] (new) + a[i+1] (original)."""
    n = N - 1
    nxt = a[1:].copy()
    a[:n] = b[:n] + c[:n] * c[:n] + b[:n] * b[:n] + c[:n]
    d[:n] = a[:n] + nxt
