import numpy as np


def tsvc_2_s1213(a, b, c, d, N):
    """For i = 1..N-2: b[i] = (original a[i+1]) * d[i], then a[i] = (updated b[i-1]) + c[i]."""
    b[1:N - 1] = a[2:] * d[1:N - 1]
    a[1:N - 1] = b[:N - 2] + c[1:N - 1]
